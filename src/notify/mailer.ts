import nodemailer from "nodemailer";
import type { Logger } from "../logging/logger.js";

export interface MailMessage {
  readonly to: string;
  readonly subject: string;
  readonly text: string;
  /** Extra header fields (List-Unsubscribe); nodemailer folds and encodes them. */
  readonly headers?: Readonly<Record<string, string>>;
}

/**
 * The server's final word on this recipient (a 5xx to RCPT TO: unknown user, refused address),
 * which no retry can change. Any other 5xx (a refused password, a blocklisted greeting, a refused
 * MAIL_FROM, a quota) is the sender's configuration or standing: once an operator mends it, the
 * same mail goes out.
 */
export function isRecipientRefused(err: unknown): boolean {
  const { responseCode, command } = (err ?? {}) as { responseCode?: unknown; command?: unknown };
  return typeof responseCode === "number" && responseCode >= 500 && command === "RCPT TO";
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
  close(): void;
}

/**
 * How long the mailer waits to connect, for the server's greeting, and through a silence
 * mid-conversation. nodemailer's own defaults are 2 min, 30 s and 10 min: one stuck attempt then
 * outlasted its claim on the address (another replica sent the same welcome) and the shutdown.
 * And how long one send may take in all: the others are idle timers, which a server that answers
 * a continuation line every few seconds resets for as long as it likes.
 */
export interface SmtpTimeouts {
  readonly connectionMs: number;
  readonly greetingMs: number;
  readonly socketMs: number;
  readonly sendMs: number;
}

/** A send ends within 60 s: inside the 120 s claim on its address with the 25 s wait before it. */
export const SMTP_TIMEOUTS: SmtpTimeouts = { connectionMs: 10_000, greetingMs: 10_000, socketMs: 20_000, sendMs: 60_000 };

/**
 * SMTP through nodemailer (SMTP_URL). The URL is read here into plain options, so the timeouts and
 * the TLS rule below reach the connection whatever nodemailer does with a `url` (before 10.0 it
 * dropped every option given beside one, and timeouts set on the transport afterwards never
 * reached its connection). With credentials on a plain `smtp://` URL STARTTLS is
 * required, so a man in the middle who strips the server's STARTTLS offer gets a refusal, not the
 * password. The URL's own query options (`?requireTLS=false` for a relay on a trusted network,
 * `?tls.rejectUnauthorized=false`) come last and decide, as they do in nodemailer.
 */
export function smtpMailer(url: string, from: string, timeouts: SmtpTimeouts = SMTP_TIMEOUTS): Mailer {
  const parsed = new URL(url);
  const auth = parsed.username !== "" ? { auth: { user: decodeURIComponent(parsed.username), pass: decodeURIComponent(parsed.password) } } : {};
  const transport = nodemailer.createTransport(
    {
      // An IPv6 literal comes bracketed in a URL; the socket wants the bare address.
      host: parsed.hostname.replace(/^\[(.*)\]$/, "$1"),
      ...(parsed.port !== "" ? { port: Number(parsed.port) } : {}),
      secure: parsed.protocol === "smtps:",
      ...auth,
      connectionTimeout: timeouts.connectionMs,
      greetingTimeout: timeouts.greetingMs,
      socketTimeout: timeouts.socketMs,
      ...(parsed.username !== "" && parsed.protocol === "smtp:" ? { requireTLS: true } : {}),
      ...urlOptions(parsed.searchParams, ["host", "secure", ...(parsed.port !== "" ? ["port"] : []), ...(parsed.username !== "" ? ["auth"] : [])]),
    },
    { from },
  );
  return {
    async send(m) {
      // nodemailer closes the connection when the signal fires (10.x: an AbortSignal per send).
      const signal = AbortSignal.timeout(timeouts.sendMs);
      await transport.sendMail({ from, to: m.to, subject: m.subject, text: m.text, ...(m.headers ? { headers: { ...m.headers } } : {}), signal });
    },
    close() {
      transport.close();
    },
  };
}

/**
 * A connection URL's query options as nodemailer reads them: "true"/"false" and numbers typed,
 * `tls.*` nested, and none of `given` (what the URL itself says: `smtps://…?secure=false` does
 * not downgrade the connection).
 */
function urlOptions(params: URLSearchParams, given: readonly string[]): Record<string, unknown> {
  const typed = (v: string): unknown => (v === "true" ? true : v === "false" ? false : v !== "" && !Number.isNaN(Number(v)) ? Number(v) : v);
  const options: Record<string, unknown> = {};
  const tls: Record<string, unknown> = {};
  for (const [key, value] of params) {
    if (key.startsWith("tls.")) tls[key.slice(4)] = typed(value);
    else if (!key.includes(".") && !given.includes(key)) options[key] = typed(value);
  }
  return Object.keys(tls).length > 0 ? { ...options, tls } : options;
}

/** Without SMTP_URL, e-mails are logged (subject only: addresses are personal data), not sent. */
export function logMailer(logger: Logger): Mailer {
  return {
    async send(m) {
      logger.info({ subject: m.subject }, "e-mail not sent: SMTP_URL is not configured");
    },
    close() {},
  };
}
