import { createHash, timingSafeEqual } from "node:crypto";
import express, { type NextFunction, type Request, type Response, type Router } from "express";
import type { Logger } from "../../logging/logger.js";
import type { Clock } from "../../runtime/clocks/clock.js";

/** The header daprd puts its APP_API_TOKEN in on every call to the app (Dapr's app API token). */
export const DAPR_API_TOKEN_HEADER = "dapr-api-token";

/**
 * How long a connection daprd used may idle here. daprd's app channel is Go's default transport,
 * which keeps idle connections 90 s; a server that closes one first (the API's keep-alive is 5 s)
 * races a request daprd is writing on it, and daprd does not retry a PUT that met "connection
 * reset by peer": the chaos suite saw reminders, actor calls and pub/sub deliveries fail so. Past
 * 90 s, daprd closes first. Only a connection that presented daprd's token gets this.
 */
export const DAPRD_KEEP_ALIVE_MS = 95_000;

/** At most one "refused" warning a minute: anyone can send these, and the access log has each. */
const WARN_EVERY_MS = 60_000;

const digest = (value: string): Buffer => createHash("sha256").update(value).digest();

/**
 * Mounts the routes daprd calls on the app port (`/actors/...`, `/dapr/...`) behind daprd's
 * token: they carry no API key and they reach actors directly (a method call, a reminder, a
 * forged pub/sub event that would go out as a signed webhook), so only a caller holding it gets
 * through. A caller without it leaves this router (`next("router")`) and meets the API pipeline
 * like any unknown path: the same 404, request id, security headers and access-log line, so
 * nothing tells it these routes exist (answering here left out X-Request-Id and helmet's
 * headers, audit 2026-11-26). Digests of equal length make the comparison constant-time whatever
 * was sent. `/healthz` stays open: it tells only whether this replica hosts actors, and probes
 * call it.
 */
export function daprCallerGuard(token: string, logger: Logger, guarded: readonly Router[], clock: Clock): Router {
  const expected = digest(token);
  const router = express.Router();
  let warnedAt = -Infinity;
  let unreported = 0;
  router.use(["/actors", "/dapr"], (req: Request, res: Response, next: NextFunction) => {
    const sent = req.get(DAPR_API_TOKEN_HEADER);
    if (sent !== undefined && timingSafeEqual(digest(sent), expected)) {
      // Node sets the keep-alive timeout when the response finishes, before this listener runs
      // (its own 'finish' listener was added first), and clears it when the next request arrives.
      const socket = req.socket;
      res.once("finish", () => {
        if (!socket.destroyed) socket.setTimeout(DAPRD_KEEP_ALIVE_MS);
      });
      return next();
    }
    // Kept for the operator: a daprd with the wrong token is refused on every call.
    unreported += 1;
    if (clock.now() - warnedAt >= WARN_EVERY_MS) {
      logger.warn({ method: req.method, path: req.baseUrl, token: sent === undefined ? "missing" : "wrong", refused: unreported }, "dapr callback refused");
      warnedAt = clock.now();
      unreported = 0;
    }
    next("router");
  });
  for (const inner of guarded) router.use(inner);
  return router;
}
