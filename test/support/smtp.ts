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
  stop(): Promise<void>;
}

/** A real SMTP server in this process (no TLS, any credentials), recording what it accepts. */
export async function startSmtp(): Promise<RunningSmtp> {
  const port = await freePort();
  const mails: ReceivedMail[] = [];
  const state = { failing: false };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
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
    get failing() {
      return state.failing;
    },
    set failing(v: boolean) {
      state.failing = v;
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
