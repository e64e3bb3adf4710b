import { Writable } from "node:stream";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Actor } from "../../../src/runtime/actor.js";
import type { ActorContext } from "../../../src/runtime/actor-context.js";
import { ManualClock } from "../../../src/runtime/clocks/clock.js";
import { LocalActorHost } from "../../../src/runtime/local/local-host.js";
import { createLogger, type Logger } from "../../../src/logging/logger.js";
import { runInRequest } from "../../../src/logging/log-context.js";
import { openSqliteStore } from "../../../src/store/sqlite/sqlite-store.js";
import type { Store } from "../../../src/store/store.js";

/** A service of its own with the root logger, as the owner mail and the model call are. */
class Mailer {
  constructor(private readonly logger: Logger) {}
  async send(): Promise<void> {
    await new Promise<void>((resolve) => setImmediate(resolve));
    this.logger.warn({ result: "held_back" }, "owner mail held back");
  }
}

class NotifyingActor extends Actor {
  static readonly actorType = "Notifying";
  constructor(
    ctx: ActorContext,
    private readonly mailer: Mailer,
  ) {
    super(ctx);
  }
  async notify(): Promise<void> {
    this.ctx.logger.info("notifying");
    await this.mailer.send();
  }
}

/**
 * Every line written during an actor's turn names the actor once, whoever writes it: a line of a
 * service the actor calls (the owner mail, the model call, a live source) named neither the actor
 * nor, outside a request, anything at all.
 */
describe("log lines written during an actor's turn", () => {
  let store: Store;
  let host: LocalActorHost;
  const raw: string[] = [];

  beforeEach(async () => {
    raw.length = 0;
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        raw.push(...chunk.toString("utf8").split("\n").filter((l) => l.trim() !== ""));
        done();
      },
    });
    const logger = createLogger("info", {}, sink);
    store = openSqliteStore(":memory:");
    host = new LocalActorHost({ store: store.actorState, clock: new ManualClock(Date.UTC(2025, 0, 1)), wallClock: new ManualClock(Date.UTC(2026, 0, 1)), logger, pollIntervalMs: 0 });
    const mailer = new Mailer(logger);
    host.register(NotifyingActor, (ctx) => new NotifyingActor(ctx, mailer));
    await host.start();
  });

  afterEach(async () => {
    await host.shutdown();
    await store.close();
  });

  it("name the actor once, the actor's own lines and a service's alike, and keep the request's id", async () => {
    await runInRequest("req-abcdefgh", () => host.proxy(NotifyingActor, "n1").notify());
    const lines = raw.filter((l) => l.includes('"msg":"notifying"') || l.includes('"msg":"owner mail held back"'));
    expect(lines).toHaveLength(2);
    for (const line of lines) {
      // As written, not as parsed: a key written twice reads once after JSON.parse.
      expect(line.match(/"actorType":/g)).toHaveLength(1);
      expect(line.match(/"actorId":/g)).toHaveLength(1);
      expect(JSON.parse(line)).toMatchObject({ actorType: "Notifying", actorId: "n1", req_id: "req-abcdefgh" });
    }
  });

  it("name nothing once the turn is over", async () => {
    await host.proxy(NotifyingActor, "n2").notify();
    const mailer = new Mailer(createLogger("info", {}, new Writable({ write: (c: Buffer, _e, d) => (raw.push(c.toString("utf8").trim()), d()) })));
    await mailer.send();
    const after = raw.at(-1) ?? "";
    expect(JSON.parse(after)).toMatchObject({ msg: "owner mail held back" });
    expect(after).not.toContain("actorType");
  });
});
