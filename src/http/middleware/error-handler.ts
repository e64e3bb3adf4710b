import type { NextFunction, Request, Response } from "express";
import type { Logger } from "../../logging/logger.js";
import { ApiError, validationError } from "../errors.js";

interface BodyParserError {
  type?: string;
  status?: number;
  code?: string;
  expose?: boolean;
}

/** body-parser's errors (http-errors: a 4xx `status`, `expose: true`), zlib's included. */
function asBodyParserError(err: unknown): BodyParserError | null {
  if (typeof err !== "object" || err === null) return null;
  return "type" in err || ("expose" in err && "status" in err) ? (err as BodyParserError) : null;
}

/** Maps every failure to the documented shapes; internals stay in the log, never in the body. */
export function errorHandler(logger: Logger) {
  return (err: unknown, req: Request, res: Response, _next: NextFunction): void => {
    let apiError: ApiError;
    const bp = asBodyParserError(err);
    if (err instanceof ApiError) {
      apiError = err;
    } else if (bp?.type === "entity.too.large") {
      apiError = new ApiError(413, { detail: "Request body too large (limit 64 KiB)" });
    } else if (bp?.type === "entity.parse.failed") {
      apiError = validationError([{ loc: ["body"], msg: "Request body is not valid JSON", type: "json_invalid" }]);
    } else if (bp?.type === "encoding.unsupported" || bp?.type === "charset.unsupported") {
      apiError = new ApiError(415, { detail: "Unsupported request body encoding" });
    } else if (bp?.type === "request.aborted") {
      // The client went away mid-body: its choice, not our fault, and nobody is left to answer.
      logger.debug({ method: req.method, path: req.path }, "client aborted its request body");
      apiError = new ApiError(400, { detail: "Request body aborted" });
    } else if (bp?.expose === true && bp.status !== undefined && bp.status >= 400 && bp.status < 500) {
      // A body that does not decode (corrupt gzip/deflate/br) or does not match its length.
      const detail = /^Z_|^ERR__/.test(bp.code ?? "") ? "Request body does not match its Content-Encoding" : "Malformed request body";
      apiError = new ApiError(400, { detail });
    } else {
      const requestId = String(res.getHeader("X-Request-Id") ?? "");
      logger.error({ err, requestId, method: req.method, path: req.path }, "unhandled error");
      apiError = new ApiError(500, { detail: "Internal Server Error", request_id: requestId });
    }
    if (res.headersSent) return;
    res.status(apiError.status).set(apiError.headers).json(apiError.body);
  };
}
