import { createServer, type RequestListener, type Server } from "node:http";
import type { Config } from "../config/env.js";

/**
 * An HTTP server with its limits set on purpose (issue 19 item 8). Node only checks the
 * headers and request timeouts every `connectionsCheckingInterval` (30 s by default), which
 * is why a 30 s request timeout used to cut slow clients at ~52-82 s; checking every second
 * makes the configured values the real ones. Connections beyond the cap are closed at once.
 */
export function createLimitedServer(config: Config, listener: RequestListener): Server {
  const server = createServer(
    {
      headersTimeout: config.HTTP_HEADERS_TIMEOUT_MS,
      requestTimeout: config.HTTP_REQUEST_TIMEOUT_MS,
      keepAliveTimeout: config.HTTP_KEEP_ALIVE_TIMEOUT_MS,
      connectionsCheckingInterval: Math.min(1_000, config.HTTP_HEADERS_TIMEOUT_MS),
    },
    listener,
  );
  server.maxConnections = config.HTTP_MAX_CONNECTIONS;
  return server;
}

/** Binds `server`; resolves with the bound port, rejects (EADDRINUSE, EACCES…) without side effects. */
export function bindServer(server: Server, port: number, host: string): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    const failed = (err: Error): void => reject(err);
    server.once("error", failed);
    server.listen(port, host, () => {
      server.off("error", failed);
      const addr = server.address();
      resolve(typeof addr === "object" && addr !== null ? addr.port : port);
    });
  });
}
