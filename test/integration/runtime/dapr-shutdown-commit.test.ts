import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { Actor } from "../../../src/runtime/actor.js";
import { wallClock } from "../../../src/runtime/clocks/clock.js";
import type { DaprActorHost } from "../../../src/runtime/dapr/dapr-host.js";
import { captureLogger } from "../../support/capture-logger.js";
import { startControlPlane, startReplica, type ControlPlane, type Replica } from "./support/dapr-cluster.js";

/** Holds each turn open until the test lets it go, so a turn can be in flight when daprd stops. */
let letGo: () => void = () => undefined;
let entered: () => void = () => undefined;

class HeldActor extends Actor {
  static readonly actorType = "Held";

  async hold(n: number): Promise<number> {
    this.ctx.state.set("n", n);
    const released = new Promise<void>((resolve) => (letGo = resolve));
    entered();
    await released;
    return n;
  }

  async value(): Promise<number> {
    return (await this.ctx.state.get("n", z.number())) ?? 0;
  }
}

/**
 * A turn still running when its daprd is asked to shut down (a replica stopping for a deploy):
 * daprd closes its placement lock at once and refuses the turn's state transaction ("error
 * saving actor transaction state: lock closed"). Nothing was written and the actor's next owner
 * runs what comes next, as when placement moves an actor mid-turn, so the host reports it as a
 * move (a warning), not as a failed turn: `npm run start:dapr` logged it at error level on a
 * plain Ctrl-C, which pages whoever watches the errors at every deploy. Real daprd 1.16.2.
 */
describe("a turn in flight when its daprd shuts down", () => {
  let plane: ControlPlane;
  let replica: Replica | undefined;
  const log = captureLogger();

  beforeAll(async () => {
    plane = await startControlPlane();
    replica = await startReplica(plane, "held", (host: DaprActorHost) => host.register(HeldActor), { clock: wallClock, logger: log.logger });
  }, 180_000);

  afterAll(async () => {
    await replica?.stop();
    await plane?.stop();
  }, 60_000);

  it("is rolled back and reported as the actor moving, not as a failed turn", async () => {
    const r = replica;
    if (r === undefined) throw new Error("no replica");
    const inTurn = new Promise<void>((resolve) => (entered = resolve));
    // Not awaited: a call whose turn was refused this way follows its actor to the next owner,
    // and with this replica's daprd gone there is none; the replica's stop ends it.
    void r.host
      .proxy(HeldActor, "h1")
      .hold(7)
      .catch(() => undefined);
    await inTurn;
    await r.sidecar.shutdown();
    // daprd has begun its shutdown once it reports placement disconnected (its placement lock is
    // closed with it); only then does the turn try to commit.
    await expect
      .poll(async () => JSON.stringify(await r.sidecar.metadata()), { timeout: 10_000, interval: 20 })
      .toContain("placement: disconnected");
    letGo();
    const reported = (): string[] =>
      log.lines
        .filter((l) => l.actorType === "Held" && Number(l.level) >= 40)
        .map((l) => `${String(l.level)} ${String(l.msg)} ${String((l.err as { message?: unknown } | undefined)?.message ?? "")}`);
    await expect.poll(() => reported().length, { timeout: 10_000, interval: 20 }).toBeGreaterThan(0);
    // Rolled back (the transaction was refused), and said as a move, not as a failed turn.
    expect(reported()[0], reported().join("\n")).toMatch(/^40 actor moved to another replica during its turn; its changes were rolled back .*lock closed/);
    expect(reported().filter((l) => l.startsWith("50 ")), reported().join("\n")).toEqual([]);
  }, 60_000);
});
