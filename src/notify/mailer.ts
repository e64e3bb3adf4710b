import nodemailer from "nodemailer";
import type { Logger } from "../logging/logger.js";

export interface MailMessage {
  readonly to: string;
  readonly subject: string;
  readonly text: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
  close(): void;
}

/** SMTP through nodemailer (SMTP_URL); connection and socket timeouts keep a dead server from hanging us. */
export function smtpMailer(url: string, from: string): Mailer {
  const transport = nodemailer.createTransport(url, { from });
  Object.assign(transport.options, { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 });
  return {
    async send(m) {
      await transport.sendMail({ from, to: m.to, subject: m.subject, text: m.text });
    },
    close() {
      transport.close();
    },
  };
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
