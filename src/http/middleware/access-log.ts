import type { NextFunction, Request, Response } from "express";
import type { Logger } from "../../logging/logger.js";
import { routePathOf } from "../router.js";
import { SECRET_SHAPE } from "../../logging/secret-shape.js";
import { whenAnswerEnds } from "./response-deadline.js";

/** A segment with its percent-escapes undone, twice-encoded ones (`%255F`) included. */
function decoded(segment: string): string {
  let text = segment;
  for (let round = 0; round < 3; round++) {
    const next = text.replace(/%([0-9a-f]{2})/gi, (_escape, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    if (next === text) break;
    text = next;
  }
  return text;
}

/**
 * A path as the log may keep it. Callers put anything into paths (a review found
 * `GET /v1/keys/svc_pro_…` and `DELETE /v1/webhooks/dave@example.org` written out in full; an
 * audit found `/v1/verdict/latest&api_key=svc_pro_…` and `latest%3Fapi_key%3Dsvc_pro_…` from
 * clients that mistype or over-encode the `?`), and the logger's redaction only knows field
 * names. So the first segment that holds a key, a webhook secret or an e-mail address anywhere,
 * or a query string (`?`, `=` or `&`), as written or once decoded, is replaced and everything
 * after it left out: a webhook secret's base64 holds `/` about four times in ten, and the part
 * after the slash was logged in full. An overlong segment is cut.
 */
export function loggablePath(path: string): string {
  const kept: string[] = [];
  for (const segment of path.split("/")) {
    const mask = maskOf(decoded(segment));
    if (mask !== null) {
      kept.push(mask);
      break;
    }
    kept.push(segment.length > 64 ? `${segment.slice(0, 64)}…` : segment);
  }
  return kept.join("/");
}

function maskOf(plain: string): string | null {
  if (SECRET_SHAPE.test(plain)) return "[secret]";
  if (plain.includes("@")) return "[email]";
  if (/[?=&]/.test(plain)) return "[query]";
  return null;
}

/**
 * One structured line per answered request: id, method, the route pattern that answered (null
 * for none), the path with secrets masked (never the query string, which may carry anything a
 * caller typed), status and duration. Written by hand over pino because pino-http's per-request
 * child logger cost 42% of a bare Express request's throughput. A 503 is the service saying "not
 * now" (warming up, draining, overloaded), expected during every start: a warning, not an error.
 */
export function accessLog(logger: Logger) {
  return (req: Request, res: Response, next: NextFunction): void => {
    // Each line at its own level: at LOG_LEVEL=warn the refusals and failures still go out.
    if (!logger.isLevelEnabled("error")) return next();
    const start = process.hrtime.bigint();
    whenAnswerEnds(req, res, (end) => {
      if (end.finished) {
        const status = res.statusCode;
        const level = status === 503 ? "warn" : status >= 500 ? "error" : "info";
        if (!logger.isLevelEnabled(level)) return;
        const line = requestLine(req, res, start, status);
        if (level === "warn") logger.warn(line, "request refused: unavailable");
        else if (level === "error") logger.error(line, "request failed");
        else logger.info(line, "request");
        return;
      }
      // The connection went first. A line all the same, or a slow reader the response deadline
      // stopped (and a client that gave up, or a shutdown) would leave no trace.
      const level = end.ending === "cut_off" ? "warn" : "info";
      if (!logger.isLevelEnabled(level)) return;
      const line = { ...requestLine(req, res, start, res.headersSent ? res.statusCode : null), ended: end.ending };
      if (end.ending === "cut_off") logger.warn(line, "request cut off: its answer was not read within the response deadline");
      else logger.info(line, "request ended unanswered: its connection closed before the answer was finished");
    });
    next();
  };
}

function requestLine(req: Request, res: Response, start: bigint, status: number | null) {
  return {
    req_id: res.getHeader("X-Request-Id"),
    method: req.method,
    route: routePathOf(req) ?? null,
    path: loggablePath(req.path),
    status,
    ms: Math.round(Number(process.hrtime.bigint() - start) / 1e4) / 100,
  };
}
