import type { NextFunction, Request, Response } from "express";
import type { Logger } from "../../logging/logger.js";
import { ApiError } from "../error-codes.js";
import { loggablePath } from "./access-log.js";
import { JsonTooDeepError, NotUtf8Error } from "./json-depth.js";

interface BodyParserError {
  type?: string;
  status?: number;
  code?: string;
  expose?: boolean;
  /** The body as read, on a parse failure. */
  body?: unknown;
}

/** True for a body the strict JSON parser refused although it is JSON: a bare scalar. */
function isJson(body: unknown): boolean {
  if (typeof body !== "string") return false;
  try {
    JSON.parse(body);
    return true;
  } catch {
    return false;
  }
}

/** body-parser's errors (http-errors: a 4xx `status`, `expose: true`), zlib's included. */
function asBodyParserError(err: unknown): BodyParserError | null {
  if (typeof err !== "object" || err === null) return null;
  return "type" in err || ("expose" in err && "status" in err) ? (err as BodyParserError) : null;
}

const requestIdOf = (res: Response): string => String(res.getHeader("X-Request-Id") ?? "");

/** Maps every failure to the documented shapes; internals stay in the log, never in the body. */
export function errorHandler(logger: Logger) {
  return (err: unknown, req: Request, res: Response, _next: NextFunction): void => {
    let apiError: ApiError;
    const bp = asBodyParserError(err);
    if (err instanceof ApiError) {
      apiError = err;
    } else if (err instanceof JsonTooDeepError) {
      apiError = new ApiError("json_too_deep");
    } else if (err instanceof NotUtf8Error) {
      apiError = new ApiError("unsupported_media_type");
    } else if (bp?.type === "entity.too.large") {
      apiError = new ApiError("payload_too_large");
    } else if (bp?.type === "entity.parse.failed") {
      apiError = new ApiError(isJson(bp.body) ? "json_not_object" : "json_invalid");
    } else if (bp?.type === "encoding.unsupported" || bp?.type === "charset.unsupported") {
      apiError = new ApiError("unsupported_media_type");
    } else if (err instanceof URIError) {
      // The router could not percent-decode a path parameter (`/v1/webhooks/%ZZ`): no resource
      // has that name, and it is the caller's fault, not ours (it was a logged 500).
      apiError = new ApiError("not_found");
    } else if (bp?.type === "request.aborted") {
      // The client went away mid-body: its choice, not our fault, and nobody is left to answer.
      logger.debug({ req_id: requestIdOf(res), method: req.method, path: loggablePath(req.path) }, "client aborted its request body");
      apiError = new ApiError("body_aborted");
    } else if (bp?.expose === true && bp.status !== undefined && bp.status >= 400 && bp.status < 500) {
      // A body that does not decode (corrupt gzip/deflate/br) or does not match its length.
      apiError = new ApiError(/^Z_|^ERR__/.test(bp.code ?? "") ? "bad_content_encoding" : "malformed_body");
    } else {
      const requestId = requestIdOf(res);
      logger.error({ err, req_id: requestId, method: req.method, path: loggablePath(req.path) }, "unhandled error");
      apiError = new ApiError("internal", { requestId });
    }
    if (res.headersSent) return;
    // A handler may have set its own type (a page sets text/html before sending a file).
    res.removeHeader("Content-Type");
    // A refusal is about this request at this moment; a shared cache may keep a 404 or 405 by default.
    res.setHeader("Cache-Control", "no-store");
    res.status(apiError.status).set(apiError.headers).json(apiError.body);
  };
}
