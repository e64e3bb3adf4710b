import { createServer, type Server, type Socket } from "node:net";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { smtpMailer } from "../../../src/notify/mailer.js";
import { freePort } from "../../support/free-port.js";

const MESSAGE = { to: "someone@example.com", subject: "Welcome", text: "Hello" };

describe("the SMTP mailer against servers that misbehave", () => {
  let silent: Server;
  let silentPort: number;
  const sockets: Socket[] = [];
  let plain: SMTPServer;
  let plainPort: number;
  const authAttempts: string[] = [];

  beforeAll(async () => {
    // Accepts the connection and never says a word: a wedged relay.
    silent = createServer((socket) => sockets.push(socket));
    silentPort = await freePort();
    await new Promise<void>((r) => silent.listen(silentPort, "127.0.0.1", r));
    // A real SMTP server that offers no STARTTLS: what a man in the middle who strips it leaves.
    plain = new SMTPServer({
      authOptional: true,
      disabledCommands: ["STARTTLS"],
      logger: false,
      onAuth(auth, _session, callback) {
        authAttempts.push(`${auth.username}:${auth.password ?? ""}`);
        callback(null, { user: auth.username });
      },
      onData(stream, _session, callback) {
        stream.resume();
        stream.on("end", () => callback());
      },
    });
    plainPort = await freePort();
    await new Promise<void>((r) => plain.listen(plainPort, "127.0.0.1", r));
  });
  afterAll(async () => {
    for (const s of sockets) s.destroy();
    await new Promise<void>((r) => silent.close(() => r()));
    await new Promise<void>((r) => plain.close(() => r()));
  });

  it("gives up on a server that never greets after its greeting timeout, not nodemailer's 30 s", async () => {
    const mailer = smtpMailer(`smtp://127.0.0.1:${silentPort}`, "hello@market-intel.test", { connectionMs: 5_000, greetingMs: 300, socketMs: 5_000, sendMs: 8_000 });
    const err = (await mailer.send(MESSAGE).catch((e: unknown) => e)) as { code?: string; message?: string };
    mailer.close();
    expect(err.code).toBe("ETIMEDOUT");
    expect(err.message).toMatch(/[Gg]reeting/);
  }, 10_000);

  it("gives up on a server that keeps talking without ever finishing its answer, at the send's deadline, and hangs up", async () => {
    // Greets, then answers EHLO with a continuation line every 200 ms: each resets the idle timer.
    let closed = false;
    const drip = createServer((socket) => {
      let timer: NodeJS.Timeout | undefined;
      socket.write("220 relay.test ESMTP\r\n");
      socket.once("data", () => {
        timer = setInterval(() => socket.write("250-still thinking\r\n"), 200);
      });
      socket.on("error", () => undefined);
      socket.once("close", () => {
        clearInterval(timer);
        closed = true;
      });
    });
    const port = await freePort();
    await new Promise<void>((r) => drip.listen(port, "127.0.0.1", r));
    try {
      const mailer = smtpMailer(`smtp://127.0.0.1:${port}`, "hello@market-intel.test", { connectionMs: 1_000, greetingMs: 1_000, socketMs: 1_000, sendMs: 2_000 });
      const err = (await mailer.send(MESSAGE).catch((e: unknown) => e)) as { name?: string } | undefined;
      mailer.close();
      expect(err?.name).toMatch(/TimeoutError|AbortError/);
      await vi.waitFor(() => expect(closed).toBe(true), { timeout: 3_000 });
    } finally {
      drip.close();
    }
  }, 15_000);

  it("refuses to log in over a connection without TLS when the URL carries credentials", async () => {
    const mailer = smtpMailer(`smtp://relay-user:relay-pass@127.0.0.1:${plainPort}`, "hello@market-intel.test");
    const err = (await mailer.send(MESSAGE).catch((e: unknown) => e)) as { code?: string } | undefined;
    mailer.close();
    expect(err?.code).toBe("ETLS");
    expect(authAttempts).toEqual([]);
  });

  it("sends to a server named by an IPv6 literal, as a URL brackets it", async () => {
    let received = 0;
    const v6 = new SMTPServer({
      authOptional: true,
      disabledCommands: ["STARTTLS"],
      logger: false,
      onData(stream, _session, callback) {
        stream.resume();
        stream.on("end", () => {
          received++;
          callback();
        });
      },
    });
    const port = await freePort();
    await new Promise<void>((r) => v6.listen(port, "::1", r));
    try {
      const mailer = smtpMailer(`smtp://[::1]:${port}`, "hello@market-intel.test");
      await mailer.send(MESSAGE);
      mailer.close();
      expect(received).toBe(1);
    } finally {
      await new Promise<void>((r) => v6.close(() => r()));
    }
  });

  it("still sends without TLS when the URL itself says requireTLS=false (a relay on a trusted network), or has no credentials", async () => {
    const optedOut = smtpMailer(`smtp://relay-user:relay-pass@127.0.0.1:${plainPort}?requireTLS=false`, "hello@market-intel.test");
    await optedOut.send(MESSAGE);
    optedOut.close();
    expect(authAttempts).toEqual(["relay-user:relay-pass"]);
    const anonymous = smtpMailer(`smtp://127.0.0.1:${plainPort}`, "hello@market-intel.test");
    await expect(anonymous.send(MESSAGE)).resolves.toBeUndefined();
    anonymous.close();
  });
});
