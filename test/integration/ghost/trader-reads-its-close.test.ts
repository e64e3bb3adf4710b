import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { ManualClock } from "../../../src/runtime/clocks/clock.js";
import { LocalActorHost } from "../../../src/runtime/local/local-host.js";
import { openSqliteStore } from "../../../src/store/sqlite/sqlite-store.js";
import type { Store } from "../../../src/store/store.js";
import type { ReplayMarketFeed } from "../../../src/feeds/replay/replay-feed.js";
import { EvidenceActor } from "../../../src/actors/evidence-actor.js";
import { RegimeActor } from "../../../src/actors/regime-actor.js";
import { VerdictActor } from "../../../src/actors/verdict-actor.js";
import { CouncilActor } from "../../../src/actors/council-actor.js";
import { GhostTraderActor } from "../../../src/actors/ghost-trader-actor.js";
import { FeedBarSource, type GhostBarSource } from "../../../src/application/ghost-bar-source.js";
import { DEFAULT_COSTS } from "../../../src/domain/ghost/costs.js";
import { verdictId } from "../../../src/domain/judiciary/verdict-id.js";
import { councilSessionId } from "../../../src/domain/council/session-id.js";
import { captureLogger } from "../../support/capture-logger.js";
import { sharedReplayFeed } from "../../support/replay-feed.js";

const MIN = 60_000;
const HOUR = 60 * MIN;
/** An hourly close well inside BTC's bundled history, on a day without a TIER1 release. */
const CLOSE = Date.UTC(2024, 2, 1, 10);

let feed: ReplayMarketFeed;
beforeAll(async () => {
  feed = await sharedReplayFeed();
});

/**
 * A Ghost Trader's turn about a close reads that close's verdict and council session, as the
 * backtest does, even when the Verdict and Council actors' own turns have not run yet (on a Dapr
 * survivor taking a killed replica's actors over they can run minutes late). Here they never run
 * on their own: their schedules are not set at all.
 */
describe("a Ghost Trader's turn and the rulings of its close", () => {
  let store: Store | undefined;
  let host: LocalActorHost | undefined;
  afterEach(async () => {
    await host?.shutdown();
    await store?.close();
  });

  it("has the close's verdict and session made first, and gates the bar on them", async () => {
    store = openSqliteStore(":memory:");
    const s = store;
    const clock = new ManualClock(CLOSE - 10 * MIN);
    const log = captureLogger();
    // What the trader's input held for each bar (the real source answers; this only notes it).
    const seen = new Map<number, { verdict: string | null; session: string | null }>();
    const real = new FeedBarSource(feed, s);
    const noting: GhostBarSource = {
      bars: (asset, at, limit) => real.bars(asset, at, limit),
      input: async (asset, candle, liquidity) => {
        const input = await real.input(asset, candle, liquidity);
        seen.set(candle.t + HOUR, { verdict: input.judiciary?.verdictId ?? null, session: input.council?.sessionId ?? null });
        return input;
      },
    };
    const h = new LocalActorHost({ store: s.actorState, clock, logger: log.logger, pollIntervalMs: 0 });
    host = h;
    h.register(RegimeActor, (ctx) => new RegimeActor(ctx, { feed, history: s.regimeHistory, restarts: 1 }));
    h.register(EvidenceActor, (ctx) => new EvidenceActor(ctx, { feed, evidence: s.evidence, regimes: s.regimeHistory, sessions: s.councilSessions, history: s.calibrationHistory }));
    h.register(VerdictActor, (ctx) => new VerdictActor(ctx, { feed, verdicts: s.verdicts, regimes: s.regimeHistory, askRegimeActor: true, evidence: s.evidence }));
    h.register(CouncilActor, (ctx) => new CouncilActor(ctx, { feed, sessions: s.councilSessions, regimes: s.regimeHistory, askRegimeActor: true, advisor: null, evidence: s.evidence }));
    h.register(GhostTraderActor, (ctx) => new GhostTraderActor(ctx, { source: noting, ledger: s.ghostLedger, costs: DEFAULT_COSTS, liquidityProbe: null, barTurnOffsetMs: MIN, askRulingActors: true }));
    await h.start();
    await h.proxy(RegimeActor, RegimeActor.ID).ensureScheduled();
    await h.proxy(GhostTraderActor, "BTC").ensureScheduled();
    for (let t = CLOSE - 10 * MIN; t <= CLOSE + HOUR + 5 * MIN; t += MIN) {
      clock.set(t);
      await h.runDue();
    }
    expect([...seen.keys()].map((t) => new Date(t).toISOString())).toEqual([CLOSE, CLOSE + HOUR].map((t) => new Date(t).toISOString()));
    for (const close of [CLOSE, CLOSE + HOUR]) {
      expect(seen.get(close), new Date(close).toISOString()).toEqual({ verdict: verdictId("BTC", close), session: councilSessionId("BTC", close) });
    }
    // Made once each, at the close: no verdict of any other slot, no session of any other.
    expect((await s.verdicts.latest("BTC", CLOSE + 2 * HOUR))?.at).toBe(CLOSE + HOUR);
    expect((await s.verdicts.latest("BTC", CLOSE + HOUR - 1))?.at).toBe(CLOSE);
    expect((await s.councilSessions.latest("BTC", CLOSE + HOUR - 1))?.at).toBe(CLOSE);
    expect(log.lines.filter((l) => Number(l.level) >= 40).map((l) => String(l.msg))).toEqual([]);
  }, 60_000);
});
