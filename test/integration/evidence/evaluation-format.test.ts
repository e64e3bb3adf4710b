import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { EVALUATION_FORMAT, EvidenceActor, REGIME_EVALUATION_KEY, verdictEvaluationKey } from "../../../src/actors/evidence-actor.js";
import { ManualClock } from "../../../src/runtime/clocks/clock.js";
import { LocalActorHost } from "../../../src/runtime/local/local-host.js";
import { createLogger } from "../../../src/logging/logger.js";
import { openStore } from "../../../src/store/open-store.js";
import type { Store } from "../../../src/store/store.js";
import { sharedReplayFeed } from "../../support/replay-feed.js";
import { freshStoreUrl } from "../../support/service.js";

const HOUR = 3_600_000;
/** Early in the held-out span: the actor's first catch-up covers about 13 months of hours. */
const T = Date.UTC(2023, 1, 1, 12);

/**
 * An EvidenceActor evaluates every 6 market hours. One whose last evaluation was stored in
 * another shape (a build before the current format) evaluates at its next hourly check, so the
 * routes, which answer "not computed yet" for the other shape, get this build's within the hour.
 */
describe("an EvidenceActor after an upgrade that changed the evaluation's stored shape", () => {
  let store: Store;
  let host: LocalActorHost;
  const clock = new ManualClock(T);

  beforeEach(async () => {
    clock.set(T);
    store = await openStore(freshStoreUrl("sqlite", "evalformat"));
    const feed = await sharedReplayFeed();
    host = new LocalActorHost({ store: store.actorState, clock, logger: createLogger("silent"), pollIntervalMs: 0 });
    host.register(EvidenceActor, (ctx) => new EvidenceActor(ctx, { feed, evidence: store.evidence, regimes: store.regimeHistory, sessions: store.councilSessions, history: store.calibrationHistory }));
  });

  afterEach(async () => {
    await host.shutdown();
    await store.close();
  });

  /** The actor's state as a build left it: evaluated one market hour ago, schedule in place. */
  async function evaluatedAnHourAgo(format: number | null): Promise<void> {
    const upserts = new Map<string, string>([
      ["evaluatedAt", JSON.stringify(T - HOUR)],
      ["schedule", JSON.stringify(2)],
    ]);
    if (format !== null) upserts.set("evaluationFormat", JSON.stringify(format));
    await store.actorState.commit({
      actor: { type: EvidenceActor.actorType, id: "BTC" },
      upserts,
      deletes: new Set(),
      reminderUpserts: [{ actorType: EvidenceActor.actorType, actorId: "BTC", name: "evaluate", clock: "market", dueAt: T + HOUR, periodMs: HOUR, payload: "null" }],
      reminderDeletes: [],
      outbox: [],
    });
  }

  async function nextHourlyCheck(): Promise<void> {
    await host.start();
    clock.set(T + HOUR);
    await host.runDue();
  }

  it("evaluates at the next hourly check when its last evaluation predates the current format", async () => {
    await evaluatedAnHourAgo(null);
    await nextHourlyCheck();
    expect((await store.evidence.get(verdictEvaluationKey("BTC")))?.at).toBe(T + HOUR);
    expect((await store.evidence.get(REGIME_EVALUATION_KEY))?.at).toBe(T + HOUR);
  }, 120_000);

  it("waits out its 6-hour period when the last evaluation is in the current format", async () => {
    await evaluatedAnHourAgo(EVALUATION_FORMAT);
    await nextHourlyCheck();
    expect(await store.evidence.get(verdictEvaluationKey("BTC"))).toBeNull();
  });
});
