import type { NextFunction, Request, Response } from "express";
import { processCounter, processHistogram } from "../../observability/metrics.js";
import { routePathOf } from "../router.js";
import { whenAnswerEnds } from "./response-deadline.js";

const requests = processCounter({
  name: "http_requests_total",
  help: "HTTP requests by method, route and status; status cut_off when the response deadline closed the connection before the answer was finished, closed when it closed otherwise (the client went, a shutdown, Node's request timeout)",
  labelNames: ["method", "route", "status"],
});

const duration = processHistogram({ name: "http_request_duration_seconds", help: "HTTP request duration", labelNames: ["method", "route"], buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1] });

/** Labels by route pattern, never by raw path: ids in paths would explode the series count. */
export function httpMetrics(req: Request, res: Response, next: NextFunction): void {
  const start = process.hrtime.bigint();
  whenAnswerEnds(req, res, (end) => {
    const route = routePathOf(req) ?? "unmatched";
    if (!end.finished) return void requests.inc({ method: req.method, route, status: end.ending });
    requests.inc({ method: req.method, route, status: String(res.statusCode) });
    duration.observe({ method: req.method, route }, Number(process.hrtime.bigint() - start) / 1e9);
  });
  next();
}
