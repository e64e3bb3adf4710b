import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { EvidenceActor, verdictEvaluationKey } from "../../../src/actors/evidence-actor.js";
import { LiveMarketFeed } from "../../../src/feeds/live/live-market-feed.js";
import type { Candle } from "../../../src/domain/signals/reading.js";
import { ManualClock } from "../../../src/runtime/clocks/clock.js";
import { LocalActorHost } from "../../../src/runtime/local/local-host.js";
import { createLogger } from "../../../src/logging/logger.js";
import { openStore } from "../../../src/store/open-store.js";
import type { Store } from "../../../src/store/store.js";
import type { CalibrationHistoryRepository } from "../../../src/store/ports/calibration-history.js";
import { recordSpanMs } from "../../../src/application/calibration-record.js";
import { scoredHourAt } from "../../../src/application/ruling-streams.js";
import { sharedReplayFeed } from "../../support/replay-feed.js";
import { ExchangeStandIn } from "../../support/exchange-stand-in.js";
import { freshStoreUrl, type StoreKind } from "../../support/service.js";

const H = 3_600_000;
const DAY = 24 * H;
/** How long the first actor lives past its start, in market hours: its record outgrows the feed's 1,000 bars. */
const LIVED = 500;

/**
 * Live mode calibrates on what the service recorded (issue 16, "persist it in the store so every
 * replica and every restart uses the same one"). The live feed keeps its newest 1,000 hourly bars,
 * so an EvidenceActor that starts again after a restart, or on another replica, sees ~41 days of
 * history where the one before it had lived through more. With the record it fits the same maps.
 */
describe.each<StoreKind>(["sqlite", "mongodb"])("live-mode calibration after a restart, on %s", (kind) => {
  let bars: Candle[];
  let t0: number;
  let t1: number;
  const hosts: LocalActorHost[] = [];
  const stores: Store[] = [];

  beforeAll(async () => {
    const replay = await sharedReplayFeed();
    // 1,000 bars before the first start and LIVED after it, from real BTC history.
    bars = [...replay.candles("BTC", "1h", Date.UTC(2024, 5, 1), 1000 + LIVED)];
    t0 = (bars[999] as Candle).t + H + 30 * 60_000;
    t1 = t0 + LIVED * H;
  }, 60_000);

  afterEach(async () => {
    for (const h of hosts.splice(0)) await h.shutdown();
    for (const s of stores.splice(0)) await s.close();
  });

  /**
   * A service's Evidence actors over a live feed that has polled the exchange at the clock's
   * time. `actorState`: where the actors keep their own state (another store's, for an actor
   * that has never run, as on a new replica).
   */
  async function startAt(store: Store, clock: ManualClock, served: readonly Candle[], actorState = store.actorState, history: CalibrationHistoryRepository = store.calibrationHistory) {
    const feed = new LiveMarketFeed(clock, new ExchangeStandIn(served, clock), []);
    expect((await feed.pollCandles("BTC")).ok).toBe(true);
    const host = new LocalActorHost({ store: actorState, clock, logger: createLogger("silent"), pollIntervalMs: 0 });
    host.register(EvidenceActor, (ctx) => new EvidenceActor(ctx, { feed, evidence: store.evidence, regimes: store.regimeHistory, sessions: store.councilSessions, history }));
    await host.start();
    hosts.push(host);
    return { feed, host, evidence: host.proxy(EvidenceActor, "BTC") };
  }

  /** The evaluation the actor publishes at its first hourly check after the clock's time. */
  async function evaluation(started: Awaited<ReturnType<typeof startAt>>, store: Store, clock: ManualClock) {
    await started.evidence.ensureScheduled();
    clock.set(Math.ceil(clock.now() / H) * H);
    await started.host.runDue();
    const doc = await store.evidence.get(verdictEvaluationKey("BTC"));
    expect(doc?.at).toBe(clock.now());
    return doc?.body;
  }

  async function maps(evidence: { mapFor: EvidenceActor["mapFor"]; agentMapsFor: EvidenceActor["agentMapsFor"] }, at: number) {
    return {
      verdict: await evidence.mapFor({ kind: "verdict", at }),
      council: await evidence.mapFor({ kind: "council", at }),
      agents: await evidence.agentMapsFor({ at }),
    };
  }

  it("fits the same maps as the actor that lived through the hours the feed no longer holds", async () => {
    const store = await openStore(freshStoreUrl(kind, "livecal"));
    stores.push(store);
    const clock = new ManualClock(t0);
    const first = await startAt(store, clock, bars);
    await maps(first.evidence, t0);
    clock.set(t1);
    expect((await first.feed.pollCandles("BTC")).ok).toBe(true);
    const lived = await maps(first.evidence, t1);
    // It has graded more hours than a feed of 1,000 bars can hold.
    expect(lived.verdict.outcomes).toBeGreaterThan(1000);
    const livedEvaluation = await evaluation(first, store, clock);
    await hosts.splice(0)[0]?.shutdown();

    // The restart: a new process whose feed holds the newest 1,000 bars only.
    clock.set(t1);
    const restarted = await startAt(store, clock, bars.slice(LIVED));
    expect(restarted.feed.candles("BTC", "1h", t1, 5000)).toHaveLength(1000);
    expect(await maps(restarted.evidence, t1)).toEqual(lived);
    await hosts.splice(0)[0]?.shutdown();

    // An actor that never ran (no state of its own) evaluates the same recorded hours alike.
    const blank = await openStore(freshStoreUrl(kind, "livecal-state"));
    stores.push(blank);
    clock.set(t1);
    const moved = await startAt(store, clock, bars.slice(LIVED), blank.actorState);
    const movedEvaluation = await evaluation(moved, store, clock);
    expect(movedEvaluation).toEqual(livedEvaluation);
    // Over every recorded hour, not just the feed's 1,000.
    const [span] = z.object({ spans: z.array(z.object({ hours: z.number() })).length(1) }).parse(movedEvaluation).spans;
    expect(span?.hours).toBeGreaterThan(1000);

    // Without the record (a store that holds none), the same feed fits on far fewer outcomes.
    const empty = await openStore(freshStoreUrl(kind, "livecal-empty"));
    stores.push(empty);
    const unrecorded = await maps((await startAt(empty, clock, bars.slice(LIVED))).evidence, t1);
    expect(unrecorded.verdict.outcomes).toBeLessThan(1000);
    expect(unrecorded.verdict.outcomes).toBeLessThan(lived.verdict.outcomes);
  }, 240_000);

  it("fits the day's maps as a restarted actor does when asked before the bar closing at midnight is polled", async () => {
    const store = await openStore(freshStoreUrl(kind, "livecal-midnight"));
    stores.push(store);
    const midnight = Math.ceil(t0 / DAY) * DAY + DAY;
    const clock = new ManualClock(t0);
    const first = await startAt(store, clock, bars);
    await maps(first.evidence, t0);
    clock.set(midnight - 30 * 60_000);
    expect((await first.feed.pollCandles("BTC")).ok).toBe(true);
    await maps(first.evidence, clock.now());
    // 00:00:10: the first verdict and council session of the day ask for its maps; the bar that
    // closed at midnight reaches the feed with the next minute's poll.
    clock.set(midnight + 10_000);
    const early = await maps(first.evidence, clock.now());
    expect(early.verdict.fittedAt).toBe(midnight - DAY);
    expect(early.council.fittedAt).toBe(midnight - DAY);
    expect(early.agents.fittedAt).toBe(midnight - DAY);
    clock.set(midnight + 60_000);
    expect((await first.feed.pollCandles("BTC")).ok).toBe(true);
    const lived = await maps(first.evidence, clock.now());
    expect(lived.verdict.fittedAt).toBe(midnight);
    expect(lived.agents.fittedAt).toBe(midnight);
    await hosts.splice(0)[0]?.shutdown();

    // Restarted after the poll: it grades the outcomes that ended at midnight, as the first did.
    const restarted = await startAt(store, clock, bars);
    expect(await maps(restarted.evidence, clock.now())).toEqual(lived);
  }, 240_000);

  it("records every hour it ruled even when a write to the record failed mid-way", async () => {
    const clock = new ManualClock(t0);
    const clean = await openStore(freshStoreUrl(kind, "livecal-clean"));
    const flaky = await openStore(freshStoreUrl(kind, "livecal-flaky"));
    stores.push(clean, flaky);
    // The first write lands its first half and then fails, as an insertMany cut off by a
    // failover does: the retry finds part of its rows stored already.
    let landed: number | null = null;
    const failingOnce: CalibrationHistoryRepository = {
      recordRulings: async (rows) => {
        if (landed === null) {
          landed = Math.floor(rows.length / 2);
          await flaky.calibrationHistory.recordRulings(rows.slice(0, landed));
          throw new Error("MongoServerError: not primary");
        }
        return flaky.calibrationHistory.recordRulings(rows);
      },
      rulingsBetween: (streams, from, to) => flaky.calibrationHistory.rulingsBetween(streams, from, to),
      recordCloses: (asset, points) => flaky.calibrationHistory.recordCloses(asset, points),
      closesBetween: (asset, from, to) => flaky.calibrationHistory.closesBetween(asset, from, to),
      pruneBefore: (cutoff) => flaky.calibrationHistory.pruneBefore(cutoff),
    };
    const reference = await startAt(clean, clock, bars);
    const expected = await reference.evidence.mapFor({ kind: "verdict", at: t0 });
    const interrupted = await startAt(flaky, clock, bars, flaky.actorState, failingOnce);
    const recorded = (store: Store) => store.calibrationHistory.rulingsBetween(["verdict:BTC"], 0, t0);
    await expect(interrupted.evidence.mapFor({ kind: "verdict", at: t0 })).rejects.toThrow(/not primary/);
    // Failed mid-way: part of the rows are stored, and only those.
    expect(landed).toBeGreaterThan(0);
    expect(await recorded(flaky)).toHaveLength(landed ?? 0);
    expect(await interrupted.evidence.mapFor({ kind: "verdict", at: t0 })).toEqual(expected);
    // The retry kept what had landed and stored the rest: every hour once, as the clean record.
    const stored = await recorded(flaky);
    expect(stored.length).toBeGreaterThan(900);
    expect(new Set(stored.map((r) => r.at)).size).toBe(stored.length);
    expect(stored).toEqual(await recorded(clean));
  }, 240_000);

  it("evaluates the trailing year and keeps the record that year's maps were fitted on, no more", async () => {
    const store = await openStore(freshStoreUrl(kind, "livecal-span"));
    stores.push(store);
    // What a service that has run for 800 days recorded before the feed's oldest bar: real BTC
    // closes, and the verdicts the engine ruled at each hour from the data up to it.
    const replay = await sharedReplayFeed();
    const recordFrom = Math.ceil((t1 - 800 * DAY) / H) * H;
    const feedFrom = (bars[LIVED] as Candle).t + H;
    const closes = replay
      .candles("BTC", "1h", feedFrom - H, Math.round((feedFrom - recordFrom) / H))
      .map((b) => ({ t: b.t + H, close: b.c }))
      .filter((p) => p.t < feedFrom);
    expect(closes[0]?.t).toBeLessThanOrEqual(recordFrom);
    await store.calibrationHistory.recordCloses("BTC", closes);
    const rulings = [];
    for (const { t } of closes) {
      const hour = await scoredHourAt(replay, { kind: "verdict", asset: "BTC" }, t);
      if (hour !== null) rulings.push({ stream: "verdict:BTC", at: t, ruling: hour.ruling, score: hour.score });
    }
    await store.calibrationHistory.recordRulings(rulings);

    const clock = new ManualClock(t1);
    const started = await startAt(store, clock, bars.slice(LIVED));
    const body = await evaluation(started, store, clock);
    const now = clock.now();
    const [span] = z.object({ spans: z.array(z.object({ span: z.string(), hours: z.number(), from: z.number(), to: z.number() })).length(1) }).parse(body).spans;
    expect(span?.span).toBe("trailing_365d");
    // The published evaluation starts a year back, not where the record starts (800 days) and
    // not where the feed starts (1,000 hours).
    expect(span?.from).toBeGreaterThanOrEqual(now - 365 * DAY);
    expect(span?.from).toBeLessThan(now - 364 * DAY);
    expect(span?.hours).toBeGreaterThan(8000);

    // The evaluation pruned what no map or evaluation reads any more: everything older than the
    // span (732 days) and a day, and only that.
    const cutoff = now - recordSpanMs() - DAY;
    expect(recordSpanMs()).toBe(732 * DAY);
    const left = await store.calibrationHistory.rulingsBetween(["verdict:BTC"], 0, now);
    expect(left[0]?.at).toBeGreaterThanOrEqual(cutoff);
    expect(left[0]?.at).toBeLessThan(cutoff + DAY);
    const leftCloses = await store.calibrationHistory.closesBetween("BTC", 0, now);
    expect(leftCloses[0]?.t).toBe(Math.ceil(cutoff / H) * H);
  }, 240_000);
});
