/**
 * What a log line may say about a failure of something outside the service (a mail server, the
 * owner's notification hook): its kind, never its message. Those messages quote what they were
 * given (a mail server's "550 <dave@example.org>: Recipient address rejected", a fetch error's
 * whole URL, and OWNER_NOTIFY_URL is a bearer credential), and the logger's redaction knows only
 * field names, so it cannot see inside a message.
 */
export interface ErrorSummary {
  /** The error's class, e.g. "FetchError", "AbortError". */
  readonly name: string;
  /** A system or library code, e.g. "ECONNREFUSED", "EENVELOPE". */
  readonly code?: string;
  /** The protocol step that failed, e.g. "RCPT TO" (nodemailer). */
  readonly command?: string;
  /** The server's numeric reply, e.g. SMTP 550 or HTTP 503. */
  readonly responseCode?: number;
}

/** Codes and commands are identifiers; anything else in those fields is left out, unseen. */
const IDENTIFIER = /^[A-Za-z][A-Za-z0-9_ -]{0,39}$/;

function field(err: object, name: string): unknown {
  return (err as Record<string, unknown>)[name];
}

export function errorSummary(err: unknown): ErrorSummary {
  if (typeof err !== "object" || err === null) return { name: typeof err };
  const name = err instanceof Error && IDENTIFIER.test(err.name) ? err.name : "Error";
  const code = field(err, "code");
  const command = field(err, "command");
  const responseCode = field(err, "responseCode") ?? field(err, "status");
  return {
    name,
    ...(typeof code === "string" && IDENTIFIER.test(code) ? { code } : {}),
    ...(typeof command === "string" && IDENTIFIER.test(command) ? { command } : {}),
    ...(typeof responseCode === "number" && Number.isInteger(responseCode) ? { responseCode } : {}),
  };
}
