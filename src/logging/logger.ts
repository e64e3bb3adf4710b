import { pino, type DestinationStream, type Logger, type LoggerOptions } from "pino";

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

/** `destination`: stdout unless given (tests read the lines a service writes). */
export function createLogger(level: string, options: LoggerOptions = {}, destination?: DestinationStream): Logger {
  const settings = { level, redact: { paths: REDACT_PATHS, censor: "[redacted]" }, base: { service: "market-intel" }, ...options };
  return destination === undefined ? pino(settings) : pino(settings, destination);
}
