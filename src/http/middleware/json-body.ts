import express, { type RequestHandler } from "express";
import { ApiError } from "../error-codes.js";
import { JsonTooDeepError, MAX_JSON_DEPTH, nestsDeeperThan, NotUtf8Error } from "./json-depth.js";

/** True when the request announces a body (a length above zero, or a chunked one). */
function announcesBody(headers: Record<string, string | string[] | undefined>): boolean {
  if (headers["transfer-encoding"] !== undefined) return true;
  const length = headers["content-length"];
  return typeof length === "string" && length !== "0";
}

/**
 * Reads a JSON body of at most `limit`. express.json leaves a body of any other type unread, and
 * the route then saw "no body": a form-encoded `webhook_id=…` on POST /v1/webhooks/test was
 * dropped and the test went to every webhook of the key. DECISIONS 2: a body that is not JSON is
 * 422 with type `json_invalid`, whatever its Content-Type says (worded as a Content-Type fault).
 */
export function jsonBody(limit: string): RequestHandler {
  const parse = express.json({
    limit,
    type: ["application/json", "application/*+json"],
    verify: (_req, _res, bytes, charset) => {
      if (charset.toLowerCase() !== "utf-8") throw new NotUtf8Error(charset);
      if (nestsDeeperThan(bytes, MAX_JSON_DEPTH)) throw new JsonTooDeepError();
    },
  });
  return (req, res, next) => {
    parse(req, res, (err?: unknown) => {
      if (err !== undefined) return next(err);
      if (req.body === undefined && announcesBody(req.headers)) return next(new ApiError("json_content_type"));
      next();
    });
  };
}
