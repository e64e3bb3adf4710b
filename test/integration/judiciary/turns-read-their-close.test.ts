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
import { GhostTraderActor } from "../../../src/actors/ghost-trader-actor.js";
import { FeedBarSource, type GhostBarSource } from "../../../src/application/ghost-bar-source.js";
import { DEFAULT_COSTS } from "../../../src/domain/ghost/costs.js";
import { verdictId } from "../../../src/domain/judiciary/verdict-id.js";
import { councilSessionId } from "../../../src/domain/council/session-id.js";
import { captureLogger } from "../../support/capture-logger.js";
import { sharedReplayFeed } from "../../support/replay-feed.js";

const MIN = 60_000;
const HOUR = 60 * MIN;
/** An hourly close well inside BTC's bundled history (the detector fits on the 180 days before), on a day without a TIER1 release. */
const CLOSE = Date.UTC(2024, 2, 1, 10);
const iso = (t: number): string => new Date(t).toISOString();

let feed: ReplayMarketFeed;
beforeAll(async () => {
  feed = await sharedReplayFeed();
});

interface Rig {
  readonly store: Store;
  readonly host: LocalActorHost;
  readonly log: ReturnType<typeof captureLogger>;
  /** Runs what is due at every market minute from 10 minutes before CLOSE to 5 after the next close. */
  run(): Promise<void>;
}

/**
 * The service's actors about one close, on the in-process host over the bundled data: the
 * Regime actor (turning `regimeOffsetMs` after each close), Evidence, the BTC Verdict and Council
 * actors (reading the regime through `regimes`), and, with `ghostSource`, BTC's Ghost Trader a
 * minute after the close. Only the schedules named in `scheduled` are set.
 */
async function rig(options: {
  readonly regimeOffsetMs: number;
  readonly regimes: (store: Store, reader: "verdict" | "council") => Pick<RegimeHistoryRepository, "latestAtOrBefore">;
  readonly ghostSource?: (store: Store) => GhostBarSource;
  readonly scheduled: readonly ("regime" | "verdict" | "council" | "ghost")[];
}): Promise<Rig> {
  const store = openSqliteStore(":memory:");
  const clock = new ManualClock(CLOSE - 10 * MIN);
  const log = captureLogger();
  const host = new LocalActorHost({ store: store.actorState, clock, logger: log.logger, pollIntervalMs: 0 });
  host.register(RegimeActor, (ctx) => new RegimeActor(ctx, { feed, history: store.regimeHistory, restarts: 1, barTurnOffsetMs: options.regimeOffsetMs }));
  host.register(EvidenceActor, (ctx) => new EvidenceActor(ctx, { feed, evidence: store.evidence, regimes: store.regimeHistory, sessions: store.councilSessions, history: store.calibrationHistory }));
  host.register(VerdictActor, (ctx) => new VerdictActor(ctx, { feed, verdicts: store.verdicts, regimes: options.regimes(store, "verdict"), askRegimeActor: true, evidence: store.evidence }));
  host.register(CouncilActor, (ctx) => new CouncilActor(ctx, { feed, sessions: store.councilSessions, regimes: options.regimes(store, "council"), askRegimeActor: true, advisor: null, evidence: store.evidence }));
  const ghostSource = options.ghostSource?.(store);
  if (ghostSource !== undefined) {
    host.register(GhostTraderActor, (ctx) => new GhostTraderActor(ctx, { source: ghostSource, ledger: store.ghostLedger, costs: DEFAULT_COSTS, liquidityProbe: null, barTurnOffsetMs: MIN, askRulingActors: true }));
  }
  await host.start();
  const { scheduled } = options;
  if (scheduled.includes("regime")) await host.proxy(RegimeActor, RegimeActor.ID).ensureScheduled();
  if (scheduled.includes("verdict")) await host.proxy(VerdictActor, "BTC").ensureScheduled();
  if (scheduled.includes("council")) await host.proxy(CouncilActor, "BTC").ensureScheduled();
  if (scheduled.includes("ghost")) await host.proxy(GhostTraderActor, "BTC").ensureScheduled();
  const run = async (): Promise<void> => {
    for (let t = CLOSE - 10 * MIN; t <= CLOSE + HOUR + 5 * MIN; t += MIN) {
      clock.set(t);
      await host.runDue();
    }
  };
  return { store, host, log, run };
}

/** Warnings and worse the actors logged (an ask that failed would be one). */
const warnings = (r: Rig): string[] => r.log.lines.filter((l) => Number(l.level) >= 40).map((l) => String(l.msg));

/**
 * Turns about one close are due at one instant (or a minute apart) and run side by side, on any
 * Dapr replica; a turn can also run late (a survivor taking a killed replica's actors over). By
 * turn order alone a ruling could read the hour before's regime and a trader the verdict of 5
 * minutes before, where the export and the backtest read the close's. Each now asks first.
 */
describe("turns about one close read that close's regime and rulings", () => {
  let r: Rig | undefined;
  afterEach(async () => {
    await r?.host.shutdown();
    await r?.store.close();
    r = undefined;
  });

  it("a verdict or council session has the detector evaluate its close first (the detector's turn a minute late on purpose); the detector's turn then has nothing left to do", async () => {
    // What each ruling read (the real store answers; this only notes it).
    const read = new Map<string, number | null>();
    r = await rig({
      regimeOffsetMs: MIN,
      regimes: (store, reader) => ({
        latestAtOrBefore: async (at) => {
          const row = await store.regimeHistory.latestAtOrBefore(at);
          read.set(`${reader}@${iso(at)}`, row?.at ?? null);
          return row;
        },
      }),
      scheduled: ["regime", "verdict", "council"],
    });
    await r.run();
    for (const close of [CLOSE, CLOSE + HOUR]) {
      expect(await r.store.verdicts.byId(verdictId("BTC", close)), iso(close)).not.toBeNull();
      // The newest row each ruling read at the close is the close's own evaluation.
      expect(read.get(`verdict@${iso(close)}`), iso(close)).toBe(close);
      expect(read.get(`council@${iso(close)}`), iso(close)).toBe(close);
    }
    // Each close evaluated once (the first rulings, at 09:50 and 09:55, had 09:00's made): the
    // late turns found their bar done and wrote nothing again.
    const rows = await r.store.regimeHistory.between(CLOSE - 2 * HOUR, CLOSE + 2 * HOUR);
    expect(rows.map((row) => iso(row.at))).toEqual([CLOSE - HOUR, CLOSE, CLOSE + HOUR].map(iso));
    expect((await r.host.proxy(RegimeActor, RegimeActor.ID).status()).lastBarClose).toBe(CLOSE + HOUR);
    expect(warnings(r)).toEqual([]);
  }, 60_000);

  it("a Ghost Trader has its close's verdict and session made first (their schedules not set at all) and gates the bar on them", async () => {
    // What the trader's input held for each bar (the real source answers; this only notes it).
    const seen = new Map<number, { verdict: string | null; session: string | null }>();
    r = await rig({
      regimeOffsetMs: 0,
      regimes: (store) => store.regimeHistory,
      ghostSource: (store) => {
        const real = new FeedBarSource(feed, store);
        return {
          bars: (asset, at, limit) => real.bars(asset, at, limit),
          input: async (asset, candle, liquidity) => {
            const input = await real.input(asset, candle, liquidity);
            seen.set(candle.t + HOUR, { verdict: input.judiciary?.verdictId ?? null, session: input.council?.sessionId ?? null });
            return input;
          },
        };
      },
      scheduled: ["regime", "ghost"],
    });
    await r.run();
    expect([...seen.keys()].map(iso)).toEqual([CLOSE, CLOSE + HOUR].map(iso));
    for (const close of [CLOSE, CLOSE + HOUR]) {
      expect(seen.get(close), iso(close)).toEqual({ verdict: verdictId("BTC", close), session: councilSessionId("BTC", close) });
    }
    // Nothing after the close it was asked about. The verdict nudge also makes the 5-minute slots
    // since the last verdict that no turn made (here no schedule is set; in the service, turns that
    // ran late): they are in the schedule anyway. Sessions: only the close's.
    expect((await r.store.verdicts.latest("BTC", CLOSE + 2 * HOUR))?.at).toBe(CLOSE + HOUR);
    expect((await r.store.verdicts.latest("BTC", CLOSE + HOUR - 1))?.at).toBe(CLOSE + HOUR - 5 * MIN);
    expect((await r.store.councilSessions.latest("BTC", CLOSE + HOUR - 1))?.at).toBe(CLOSE);
    expect(warnings(r)).toEqual([]);
  }, 60_000);
});
