import { pino, type DestinationStream, type Logger, type LoggerOptions } from "pino";
import { logContextFields } from "./log-context.js";

export type { Logger };

/**
 * Paths that may carry secrets or personal data. Redacted at the logger, so no call site can
 * leak them by accident (keys, webhook secrets, e-mail addresses).
 */
const REDACT_PATHS = [
  "req.headers[\"x-api-key\"]",
  "req.headers.authorization",
  "req.headers.cookie",
  "api_key",
  "apiKey",
  "secret",
  "email",
  "*.api_key",
  "*.apiKey",
  "*.secret",
  "*.email",
];

/**
 * `destination`: stdout unless given (tests read the lines a service writes). Every line written
 * while a request is being served, by any logger, carries its `req_id` (src/logging/log-context.ts).
 */
export function createLogger(level: string, options: LoggerOptions = {}, destination?: DestinationStream): Logger {
  const settings = { level, redact: { paths: REDACT_PATHS, censor: "[redacted]" }, base: { service: "market-intel" }, mixin: logContextFields, ...options };
  return destination === undefined ? pino(settings) : pino(settings, destination);
}
