import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { ManualClock } from "../../../src/runtime/clocks/clock.js";
import { LocalActorHost } from "../../../src/runtime/local/local-host.js";
import { openSqliteStore } from "../../../src/store/sqlite/sqlite-store.js";
import type { Store } from "../../../src/store/store.js";
import type { ReplayMarketFeed } from "../../../src/feeds/replay/replay-feed.js";
import type { RegimeHistoryRepository } from "../../../src/store/ports/regime-history.js";
import { EvidenceActor } from "../../../src/actors/evidence-actor.js";
import { RegimeActor } from "../../../src/actors/regime-actor.js";
import { VerdictActor } from "../../../src/actors/verdict-actor.js";
import { CouncilActor } from "../../../src/actors/council-actor.js";
import { verdictId } from "../../../src/domain/judiciary/verdict-id.js";
import { captureLogger } from "../../support/capture-logger.js";
import { sharedReplayFeed } from "../../support/replay-feed.js";

const MIN = 60_000;
const HOUR = 60 * MIN;
/** An hourly close well inside BTC's bundled history (the detector fits on the 180 days before). */
const CLOSE = Date.UTC(2024, 2, 1, 10);

let feed: ReplayMarketFeed;
beforeAll(async () => {
  feed = await sharedReplayFeed();
});

/**
 * A verdict or council session about an hourly close reads that close's regime, as the export
 * and the backtest do, even when the detector's turn for it comes later: turns due at one instant
 * run side by side (on any Dapr replica), so by turn order alone a ruling could read the hour
 * before's. Here the detector's turn is a minute late on purpose.
 */
describe("a ruling at an hourly close and the detector's turn for that close", () => {
  let store: Store | undefined;
  let host: LocalActorHost | undefined;
  afterEach(async () => {
    await host?.shutdown();
    await store?.close();
  });

  it("the ruling has the detector evaluate the close first and reads its regime; the detector's own turn then has nothing left to do", async () => {
    store = openSqliteStore(":memory:");
    const s = store;
    const clock = new ManualClock(CLOSE - 10 * MIN);
    const log = captureLogger();
    // What each ruling read, per ruling actor (the real store answers; this only notes it).
    const read = new Map<string, { at: number; regimeAt: number | null }>();
    const noting = (who: string): Pick<RegimeHistoryRepository, "latestAtOrBefore"> => ({
      latestAtOrBefore: async (at) => {
        const row = await s.regimeHistory.latestAtOrBefore(at);
        read.set(`${who}@${new Date(at).toISOString()}`, { at, regimeAt: row?.at ?? null });
        return row;
      },
    });
    const h = new LocalActorHost({ store: s.actorState, clock, logger: log.logger, pollIntervalMs: 0 });
    host = h;
    h.register(RegimeActor, (ctx) => new RegimeActor(ctx, { feed, history: s.regimeHistory, restarts: 1, barTurnOffsetMs: MIN }));
    h.register(EvidenceActor, (ctx) => new EvidenceActor(ctx, { feed, evidence: s.evidence, regimes: s.regimeHistory, sessions: s.councilSessions, history: s.calibrationHistory }));
    h.register(VerdictActor, (ctx) => new VerdictActor(ctx, { feed, verdicts: s.verdicts, regimes: noting("verdict"), askRegimeActor: true, evidence: s.evidence }));
    h.register(CouncilActor, (ctx) => new CouncilActor(ctx, { feed, sessions: s.councilSessions, regimes: noting("council"), askRegimeActor: true, advisor: null, evidence: s.evidence }));
    await h.start();
    await h.proxy(RegimeActor, RegimeActor.ID).ensureScheduled();
    await h.proxy(VerdictActor, "BTC").ensureScheduled();
    await h.proxy(CouncilActor, "BTC").ensureScheduled();
    for (let t = CLOSE - 10 * MIN; t <= CLOSE + HOUR + 5 * MIN; t += MIN) {
      clock.set(t);
      await h.runDue();
    }
    for (const close of [CLOSE, CLOSE + HOUR]) {
      const iso = new Date(close).toISOString();
      expect(await s.verdicts.byId(verdictId("BTC", close)), iso).not.toBeNull();
      // The newest row each ruling read at the close is the close's own evaluation.
      expect(read.get(`verdict@${iso}`), iso).toEqual({ at: close, regimeAt: close });
      expect(read.get(`council@${iso}`), iso).toEqual({ at: close, regimeAt: close });
    }
    // Each close evaluated once (the first rulings, at 09:50 and 09:55, had 09:00's made): the
    // late turns found their bar done and wrote nothing again.
    const rows = await s.regimeHistory.between(CLOSE - 2 * HOUR, CLOSE + 2 * HOUR);
    expect(rows.map((r) => new Date(r.at).toISOString())).toEqual([CLOSE - HOUR, CLOSE, CLOSE + HOUR].map((t) => new Date(t).toISOString()));
    expect((await h.proxy(RegimeActor, RegimeActor.ID).status()).lastBarClose).toBe(CLOSE + HOUR);
    expect(log.lines.filter((l) => Number(l.level) >= 40).map((l) => String(l.msg))).toEqual([]);
  }, 60_000);
});
