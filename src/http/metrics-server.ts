import type { RequestListener } from "node:http";
import { metricsRegistry } from "../observability/metrics.js";

/**
 * /metrics on its own port (METRICS_PORT, on METRICS_HOST = loopback by default), as Prometheus
 * exporters do: Node version, memory, file descriptors, event-loop lag and route counts are for
 * the operator's scraper, not for every caller of the API port (issue 19 item 5).
 */
export const metricsListener: RequestListener = (req, res) => {
  const path = (req.url ?? "/").split("?")[0];
  if (path !== "/metrics") {
    res.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ detail: "Not Found" }));
    return;
  }
  if (req.method !== "GET" && req.method !== "HEAD") {
    res.writeHead(405, { "content-type": "application/json", allow: "GET, HEAD" }).end(JSON.stringify({ detail: "Method Not Allowed" }));
    return;
  }
  metricsRegistry.metrics().then(
    (text) => res.writeHead(200, { "content-type": metricsRegistry.contentType }).end(req.method === "HEAD" ? undefined : text),
    () => res.writeHead(500, { "content-type": "application/json" }).end(JSON.stringify({ detail: "Internal Server Error" })),
  );
};
