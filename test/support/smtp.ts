import { SMTPServer } from "smtp-server";
import { freePort } from "./free-port.js";

export interface ReceivedMail {
  readonly from: string;
  readonly to: string[];
  readonly raw: string;
}

export interface RunningSmtp {
  readonly url: string;
  readonly mails: ReceivedMail[];
  /** While true, every message is refused with a 451 (a mail server having a bad day). */
  failing: boolean;
  /** Recipients refused at RCPT TO with a 550, worded as Postfix words it (quoting the address). */
  readonly refusedRecipients: Set<string>;
  stop(): Promise<void>;
}

/** A real SMTP server in this process (no TLS, any credentials), recording what it accepts. */
export async function startSmtp(): Promise<RunningSmtp> {
  const port = await freePort();
  const mails: ReceivedMail[] = [];
  const state = { failing: false };
  const refusedRecipients = new Set<string>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (!refusedRecipients.has(address.address)) return callback();
      const err = Object.assign(new Error(`5.1.1 <${address.address}>: Recipient address rejected: User unknown in virtual mailbox table`), { responseCode: 550 });
      callback(err);
    },
    onData(stream, session, callback) {
      let raw = "";
      stream.on("data", (d: Buffer) => (raw += d.toString()));
      stream.on("end", () => {
        if (state.failing) {
          const err = Object.assign(new Error("Try again later"), { responseCode: 451 });
          return callback(err);
        }
        mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((r) => r.address),
          raw,
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    refusedRecipients,
    get failing() {
      return state.failing;
    },
    set failing(v: boolean) {
      state.failing = v;
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
