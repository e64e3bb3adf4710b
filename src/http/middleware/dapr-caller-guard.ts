import { createHash, timingSafeEqual } from "node:crypto";
import express, { type NextFunction, type Request, type Response, type Router } from "express";
import { ApiError } from "../error-codes.js";
import type { Logger } from "../../logging/logger.js";

/** The header daprd puts its APP_API_TOKEN in on every call to the app (Dapr's app API token). */
export const DAPR_API_TOKEN_HEADER = "dapr-api-token";

const digest = (value: string): Buffer => createHash("sha256").update(value).digest();

/**
 * Guards the routes daprd calls on the app port (`/actors/...`, `/dapr/...`): they carry no API
 * key and they reach actors directly (a method call, a reminder, a forged pub/sub event that
 * would go out as a signed webhook), so only a caller holding daprd's token gets through.
 * A caller without it is answered exactly like an unknown path: the routes do not exist for
 * it. Digests of equal length make the comparison constant-time whatever was sent.
 * `/healthz` stays open: it tells only whether this replica hosts actors, and probes call it.
 */
export function daprCallerGuard(token: string, logger: Logger): Router {
  const expected = digest(token);
  const router = express.Router();
  router.use(["/actors", "/dapr"], (req: Request, res: Response, next: NextFunction) => {
    const sent = req.get(DAPR_API_TOKEN_HEADER);
    if (sent !== undefined && timingSafeEqual(digest(sent), expected)) return next();
    logger.warn({ method: req.method, path: req.baseUrl, token: sent === undefined ? "missing" : "wrong" }, "dapr callback refused");
    const refusal = new ApiError("not_found");
    res.status(refusal.status).json(refusal.body);
  });
  return router;
}
