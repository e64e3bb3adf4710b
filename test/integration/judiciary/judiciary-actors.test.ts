import { EvidenceActor } from "../../../src/actors/evidence-actor.js";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ManualClock } from "../../../src/runtime/clocks/clock.js";
import { InProcessEventBus } from "../../../src/events/in-process-bus.js";
import { OutboxDispatcher } from "../../../src/events/outbox-dispatcher.js";
import { LocalActorHost } from "../../../src/runtime/local/local-host.js";
import { openSqliteStore } from "../../../src/store/sqlite/sqlite-store.js";
import type { Store } from "../../../src/store/store.js";
import type { EventEnvelope } from "../../../src/events/event-envelope.js";
import type { ReplayMarketFeed } from "../../../src/feeds/replay/replay-feed.js";
import { VerdictActor, type VerdictActorDeps } from "../../../src/actors/verdict-actor.js";
import { verdictNewData } from "../../../src/domain/judiciary/judiciary-verdict.js";
import { councilNewData } from "../../../src/domain/council/council-event.js";
import { verdictId } from "../../../src/domain/judiciary/verdict-id.js";
import { CouncilActor, type CouncilActorDeps } from "../../../src/actors/council-actor.js";
import { councilSessionId } from "../../../src/domain/council/session-id.js";
import { calendarStatus } from "../../../src/domain/signals/macro-calendar.js";
import { ASSETS } from "../../../src/domain/signals/signal-keys.js";
import { verdictNewDataSchema } from "../../../src/http/schemas/judiciary.js";
import { councilNewDataSchema, solVerdictSchema, taoVerdictSchema } from "../../../src/http/schemas/council.js";
import { assetVerdictView } from "../../../src/domain/council/session-views.js";
import { councilAdvisorFromEnv } from "../../../src/llm/advisor-from-env.js";
import { captureLogger } from "../../support/capture-logger.js";
import { sharedReplayFeed } from "../../support/replay-feed.js";
import { ChatServer, chiefExplains, isChiefRequest, type Received, type Reply } from "../llm/chat-server.js";
import type { CouncilAsset } from "../../../src/domain/council/council-types.js";
import { modelSession } from "../../unit/council/fixtures.js";
import { pricePath } from "../../../src/application/ruling-streams.js";
import { forwardReturn } from "../../../src/domain/calibration/price-path.js";
import { modelCalibrationKey, modelMapsSchema } from "../../../src/actors/evidence-actor.js";
import { calibratedConfidence } from "../../../src/domain/calibration/calibration-map.js";
import { modelVoteScore } from "../../../src/domain/council/model-calibration.js";
import { btcCouncilView } from "../../../src/domain/council/session-views.js";
import { FeedBarSource } from "../../../src/application/ghost-bar-source.js";
import type { RegimeReport } from "../../../src/domain/regime/regime-report.js";
import { REGIMES, type Regime } from "../../../src/domain/market/vocabulary.js";
import { CachedMultipliers } from "../../../src/store/signal-multipliers.js";
import { SIGNAL_KEYS } from "../../../src/domain/signals/signal-keys.js";

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
const COUNCILS: readonly CouncilAsset[] = ["BTC", "TAO", "SOL"];

let feed: ReplayMarketFeed;
const chat = new ChatServer();
let chatUrl = "";

/** A UTC day inside every asset's data with (blackout=false) no TIER1 release, or (true) one. */
function dayWith(blackout: boolean): number {
  const span = feed.span().lastBarClose;
  const end = Math.min(...ASSETS.map((a) => span[a] ?? 0));
  for (let day = Math.floor(end / DAY) * DAY - 2 * DAY; day > end - 120 * DAY; day -= DAY) {
    const status = calendarStatus(feed.calendarEvents(), day + 12 * HOUR).status;
    if ((status === "BLACKOUT") === blackout) return day;
  }
  throw new Error("no such day in the bundled data");
}

/** A stored regime evaluation as the RegimeActor writes one (the fields the verdict reads are regime and time). */
function bullReport(at: number): RegimeReport {
  const transitions = Object.fromEntries(REGIMES.map((x) => [x, x === "BULL_TRENDING" ? 0.9 : 0.1 / 7])) as Record<Regime, number>;
  return {
    regime: "BULL_TRENDING",
    confidence: 0.8,
    btcPrice: 7784.02,
    detectedAt: at,
    strength: "STRONG",
    subRegime: null,
    volatilityState: "NORMAL",
    chopScore: 0.4,
    breakoutImminent: false,
    compatibleStrategies: ["TREND_FOLLOWING"],
    incompatibleStrategies: [],
    transitionProbabilities: transitions,
    regimeAgeHours: 3,
  };
}

interface Rig {
  store: Store;
  host: LocalActorHost;
  clock: ManualClock;
  dispatcher: OutboxDispatcher;
  events: EventEnvelope[];
  log: ReturnType<typeof captureLogger>;
  /** Moves market time in 5-minute steps, running due reminders after each (as warm-up does). */
  advance(ms: number): Promise<void>;
}

async function rig(
  start: number,
  council: Partial<CouncilActorDeps> = {},
  verdictDeps: Partial<VerdictActorDeps> | ((store: Store) => Partial<VerdictActorDeps>) = {},
): Promise<Rig> {
  const store = openSqliteStore(":memory:");
  const ownVerdictDeps = typeof verdictDeps === "function" ? verdictDeps(store) : verdictDeps;
  const clock = new ManualClock(start);
  const log = captureLogger();
  const bus = new InProcessEventBus();
  const events: EventEnvelope[] = [];
  for (const t of ["verdict.new", "council.new"]) bus.subscribe(t, async (e) => void events.push(e));
  const dispatcher = new OutboxDispatcher(store.actorOutbox, bus, log.logger, 60_000);
  const host = new LocalActorHost({ store: store.actorState, clock, logger: log.logger, dispatcher, pollIntervalMs: 0 });
  host.register(EvidenceActor, (ctx) => new EvidenceActor(ctx, { feed, evidence: store.evidence, regimes: store.regimeHistory, sessions: store.councilSessions, history: store.calibrationHistory }));
  host.register(VerdictActor, (ctx) => new VerdictActor(ctx, { feed, verdicts: store.verdicts, regimes: store.regimeHistory, evidence: store.evidence, ...ownVerdictDeps }));
  host.register(
    CouncilActor,
    (ctx) => new CouncilActor(ctx, { feed, sessions: store.councilSessions, regimes: store.regimeHistory, advisor: null, evidence: store.evidence, ...council }),
  );
  await host.start();
  for (const a of ASSETS) await host.proxy(VerdictActor, a).ensureScheduled();
  for (const a of COUNCILS) await host.proxy(CouncilActor, a).ensureScheduled();
  const advance = async (ms: number) => {
    await host.runDue();
    for (let t = 5 * MIN; t <= ms; t += 5 * MIN) {
      clock.set(start + t);
      await host.runDue();
    }
    await dispatcher.flush();
  };
  return { store, host, clock, dispatcher, events, log, advance };
}

/** BTC's verdicts on their own SQLite store, whose hourly pruning fails until `pruning.fails` is cleared. */
function failingPruning() {
  const verdicts = openSqliteStore(":memory:");
  const pruning = { fails: true };
  const flaky = {
    save: verdicts.verdicts.save.bind(verdicts.verdicts),
    latest: verdicts.verdicts.latest.bind(verdicts.verdicts),
    byId: verdicts.verdicts.byId.bind(verdicts.verdicts),
    between: verdicts.verdicts.between.bind(verdicts.verdicts),
    pruneBefore: async (asset: Parameters<Store["verdicts"]["pruneBefore"]>[0], before: number) => {
      if (pruning.fails && asset === "BTC") throw new Error("store unavailable");
      return verdicts.verdicts.pruneBefore(asset, before);
    },
  };
  return { verdicts, flaky, pruning };
}

/** A healthy provider: agents answer BUY at 0.8, the Chief Judge explains the ruling. */
const good = (r: Received): Reply =>
  isChiefRequest(r)
    ? chiefExplains(r)
    : { kind: "content", content: JSON.stringify({ ruling: "BUY", confidence: 0.8, thesis: "Trend and flows support it." }) };

beforeAll(async () => {
  feed = await sharedReplayFeed();
  chatUrl = await chat.start();
});
afterAll(async () => {
  await chat.stop();
});

describe("verdict and council actors over the bundled replay data", () => {
  let r: Rig | undefined;
  beforeEach(() => chat.reset());
  afterEach(async () => {
    await r?.host.shutdown();
    await r?.store.close();
    r = undefined;
  });

  it("stores a verdict of every asset every 5 market minutes and publishes verdict.new for BTC only", async () => {
    const start = dayWith(false) + 10 * HOUR;
    r = await rig(start);
    await r.advance(30 * MIN);
    for (const asset of ASSETS) {
      const latest = await r.store.verdicts.latest(asset, start + 30 * MIN);
      expect(latest?.id).toBe(verdictId(asset, start + 30 * MIN));
      expect(latest?.verdict.asset).toBe(asset);
      // Real data: the engine saw live inputs, so the verdict has evidence and a non-zero confidence.
      expect(latest?.verdict.coverage.live).toBeGreaterThan(5);
      expect(latest?.verdict.confidence).toBeGreaterThan(0);
      for (let k = 0; k <= 6; k++) expect(await r.store.verdicts.byId(verdictId(asset, start + k * 5 * MIN))).not.toBeNull();
    }
    const verdictEvents = r.events.filter((e) => e.event === "verdict.new");
    expect(verdictEvents).toHaveLength(7);
    for (const e of verdictEvents) verdictNewDataSchema.parse(e.data);
    const btc = await r.store.verdicts.latest("BTC");
    expect(verdictEvents.at(-1)?.data).toEqual({ ruling: btc?.verdict.ruling, composite_score: btc?.verdict.score, confidence: btc?.verdict.confidence, regime: "UNKNOWN" });
  });

  it("runs each council every 30 market minutes in judiciary mode without a provider", async () => {
    const start = dayWith(false) + 10 * HOUR;
    r = await rig(start);
    await r.advance(60 * MIN);
    const councilEvents = r.events.filter((e) => e.event === "council.new");
    // Three councils at start, +30 and +60 minutes.
    expect(councilEvents).toHaveLength(9);
    for (const e of councilEvents) councilNewDataSchema.parse(e.data);
    for (const asset of COUNCILS) {
      const s = await r.store.councilSessions.latest(asset);
      expect(s).toMatchObject({ id: councilSessionId(asset, start + 60 * MIN), asset, at: start + 60 * MIN, mode: "judiciary", agentsFailed: 6 - (s?.agentsSucceeded ?? 0) });
      expect(s?.votes).toHaveLength(6);
      // The Chief Judge's own figure keeps the judiciary baseline cap; the published one is calibrated.
      expect(s?.rawConfidence).toBeLessThanOrEqual(0.47);
      expect(s?.calibration?.horizonHours).toBe(24);
      expect(s?.confidence).toBeGreaterThan(0.3);
      expect(s?.confidence).toBeLessThan(0.7);
      expect(await r.store.councilSessions.latest(asset, start + 30 * MIN)).toMatchObject({ at: start + 30 * MIN });
    }
    // What the SOL and TAO endpoints will show is SPEC-shaped.
    taoVerdictSchema.parse(assetVerdictView((await r.store.councilSessions.latest("TAO")) ?? expect.fail("no TAO session")));
    solVerdictSchema.parse(assetVerdictView((await r.store.councilSessions.latest("SOL")) ?? expect.fail("no SOL session")));
    expect(await r.store.councilSessions.latestWithModel("BTC")).toBeNull();
  });

  it("live, the TAO council reads TAO's depth status from the trader: INSUFFICIENT raises LIQUIDITY_RISK and rules AVOID", async () => {
    const start = dayWith(false) + 10 * HOUR;
    const asked: string[] = [];
    r = await rig(start, {
      taoLiquidity: async () => {
        asked.push("TAO");
        return "INSUFFICIENT";
      },
    });
    await r.advance(30 * MIN);
    const tao = await r.store.councilSessions.latest("TAO");
    expect(tao?.riskFlags).toContain("LIQUIDITY_RISK");
    expect(tao?.ruling).toBe("AVOID");
    expect(taoVerdictSchema.parse(assetVerdictView(tao ?? expect.fail("no TAO session"))).riskFlags).toContain("LIQUIDITY_RISK");
    // One read per TAO session (at start and +30 minutes); BTC and SOL have no such flag.
    expect(asked).toHaveLength(2);
    for (const asset of ["BTC", "SOL"] as const) expect((await r.store.councilSessions.latest(asset))?.riskFlags ?? []).not.toContain("LIQUIDITY_RISK");
  });

  it("deliberates with the language model when one is configured (council mode)", async () => {
    chat.fallback = good;
    const start = dayWith(false) + 10 * HOUR;
    r = await rig(start, { advisor: councilAdvisorFromEnv({ LLM_BASE_URL: chatUrl, LLM_MODEL: "test-model", LLM_API_KEY: "sk-test" }) });
    await r.advance(0);
    for (const asset of COUNCILS) {
      const s = await r.store.councilSessions.latest(asset);
      expect(s?.mode).toBe("council");
      expect(s?.explanationSource).toBe("model");
      expect(s?.votes.filter((v) => v.source === "model").length).toBe(s?.agentsSucceeded);
      expect(await r.store.councilSessions.latestWithModel(asset)).toEqual(s);
      // No model sessions graded yet: the base rate, said plainly, for the session and each model vote.
      expect(s?.calibration?.awaitingModelOutcomes).toBe(true);
      for (const v of s?.votes.filter((x) => x.source === "model") ?? []) {
        expect(v.rawConfidence).toBe(0.8);
        expect(v.calibration).toMatchObject({ kind: "base_rate", awaitingModelOutcomes: true });
        expect(v.confidence).toBeLessThan(0.6);
      }
    }
    expect(chat.received.length).toBeGreaterThan(10);
    expect(chat.received[0]?.headers.authorization).toBe("Bearer sk-test");
    const events = r.events.filter((e) => e.event === "council.new").map((e) => e.data as { asset: string; agents_succeeded: number });
    expect(events.map((d) => d.asset).sort()).toEqual(["BTC", "SOL", "TAO"]);
  });

  it("once the model's sessions have 60 market days of graded outcomes, its sessions and votes are calibrated on them", async () => {
    chat.fallback = good;
    const start = dayWith(false) + 10 * HOUR;
    r = await rig(start, { advisor: councilAdvisorFromEnv({ LLM_BASE_URL: chatUrl, LLM_MODEL: "test-model" }) });
    // 90 market days of stored BTC model sessions, every 30 minutes, that called the next 24 h of
    // the real BTC price right: a model with a track record the map should learn.
    const prices = pricePath(feed, "BTC", start);
    const from = Math.floor(start / DAY) * DAY - 90 * DAY;
    for (let t = from; t < start - DAY; t += 30 * MIN) {
      const r24 = forwardReturn(prices, t, DAY);
      if (r24 === null) continue;
      await r.store.councilSessions.save(modelSession(t, r24 > 0));
    }
    await r.advance(0);
    const s = await r.store.councilSessions.latest("BTC", start);
    expect(s?.mode).toBe("council");
    const maps = modelMapsSchema.parse((await r.store.evidence.get(modelCalibrationKey("BTC")))?.body);
    expect(maps.fittedAt).toBe(Math.floor(start / DAY) * DAY);
    expect(maps.session.outcomes).toBeGreaterThan(60 * 24);
    expect(maps.session.kind).toBe("isotonic");
    // The healthy provider says BUY at 0.8: the session and each vote read the model's own map.
    expect(s?.calibration).toMatchObject({ kind: "isotonic", modelOutcomes: true });
    expect(s?.confidence).toBe(calibratedConfidence(maps.session, s!.ruling, s!.score));
    expect(s?.confidence).toBeGreaterThan(0.8);
    for (const v of s?.votes.filter((x) => x.source === "model") ?? []) {
      expect(v.calibration).toMatchObject({ modelOutcomes: true });
      expect(v.confidence).toBe(calibratedConfidence(maps.agents[v.agent]!, v.ruling, modelVoteScore(v)));
    }
    // The view says whose outcomes they were.
    expect(btcCouncilView(s!).confidence_basis.note).toMatch(/language model said, graded on its own outcomes/);
  });

  it("asks no model while the replay warm-up fast-forwards, and does again once it is over", async () => {
    chat.fallback = good;
    let warmingUp = true;
    const start = dayWith(false) + 10 * HOUR;
    r = await rig(start, {
      advisor: councilAdvisorFromEnv({ LLM_BASE_URL: chatUrl, LLM_MODEL: "test-model" }),
      modelAllowed: () => !warmingUp,
    });
    await r.advance(30 * MIN);
    expect(chat.received).toHaveLength(0);
    expect((await r.store.councilSessions.latest("BTC"))?.mode).toBe("judiciary");
    warmingUp = false;
    r.clock.set(start + 60 * MIN);
    await r.host.runDue();
    expect((await r.store.councilSessions.latest("BTC"))?.mode).toBe("council");
    expect(chat.received.length).toBeGreaterThan(0);
  });

  it("pauses every council on a BLACKOUT day: no session, no council.new, verdicts continue", async () => {
    const start = dayWith(true) + 10 * HOUR;
    r = await rig(start);
    await r.advance(60 * MIN);
    for (const asset of COUNCILS) expect(await r.store.councilSessions.latest(asset)).toBeNull();
    expect(r.events.filter((e) => e.event === "council.new")).toHaveLength(0);
    expect(r.events.filter((e) => e.event === "verdict.new")).toHaveLength(13);
    // One log line per council and day, not one per paused slot.
    expect(r.log.lines.filter((l) => l.msg === "council paused").map((l) => l.asset).sort()).toEqual(["BTC", "SOL", "TAO"]);
  });

  it("does not gate a Ghost Trader's bars on a BLACKOUT day with the council session from the day before", async () => {
    let day = dayWith(true);
    // A BLACKOUT day after a day with sessions.
    while (calendarStatus(feed.calendarEvents(), day - 12 * HOUR).status === "BLACKOUT") day -= DAY;
    r = await rig(day - HOUR);
    await r.advance(2 * HOUR);
    const last = await r.store.councilSessions.latest("BTC");
    expect(last?.at).toBe(day - 30 * MIN);
    const source = new FeedBarSource(feed, r.store);
    const unknownLiquidity = { status: "UNKNOWN", depthUsd: null, live: false } as const;
    const barClosingAt = (t: number) => feed.candles("BTC", "1h", t, 1)[0]!;
    // The bar closing at midnight is gated on the 23:30 session; the next one has no session to go by.
    expect((await source.input("BTC", barClosingAt(day), unknownLiquidity)).council?.sessionId).toBe(last?.id);
    expect((await source.input("BTC", barClosingAt(day + HOUR), unknownLiquidity)).council).toBeNull();
  });

  it("rules nothing while the asset has no live price: Binance's 2018-02-08 outage, and SOL and TAO before their listings", async () => {
    // Binance's hourly candles stop after the one opened 2018-02-08T00 (closed 01:00) and resume
    // with the one opened 2018-02-09T10. The price is LIVE while its last bar is at most 2 h old.
    const start = Date.parse("2018-02-08T02:00:00Z");
    const lastLive = Date.parse("2018-02-08T03:00:00Z");
    const back = Date.parse("2018-02-09T11:00:00Z");
    r = await rig(start);
    // The detector's evaluation of the last bar before the gap (closed 01:00): the regime then.
    const before = Date.parse("2018-02-08T01:00:00Z");
    await r.store.regimeHistory.record({ at: before, report: bullReport(before) });
    await r.advance(back - 5 * MIN - start);
    // The first bar after the gap closes at `back`. Before its verdict, the newest one is from
    // 03:00 the day before: a Ghost Trader catching up must not gate that bar on it.
    const source = new FeedBarSource(feed, r.store);
    const firstBack = feed.candles("BTC", "1h", back, 1)[0];
    expect(firstBack?.t).toBe(back - HOUR);
    const unknownLiquidity = { status: "UNKNOWN", depthUsd: null, live: false } as const;
    expect((await source.input("BTC", firstBack!, unknownLiquidity)).judiciary).toBeNull();
    for (let t = back; t <= back + 30 * MIN; t += 5 * MIN) {
      r.clock.set(t);
      await r.host.runDue();
    }
    await r.dispatcher.flush();
    expect((await source.input("BTC", firstBack!, unknownLiquidity)).judiciary?.verdictId).toBe(verdictId("BTC", back));
    for (const asset of ["BTC", "ETH"] as const) {
      for (let t = start; t <= back + 30 * MIN; t += 5 * MIN) {
        const stored = await r.store.verdicts.byId(verdictId(asset, t));
        expect({ asset, at: new Date(t).toISOString(), stored: stored !== null }).toEqual({ asset, at: new Date(t).toISOString(), stored: t <= lastLive || t >= back });
      }
    }
    // Before this rule these stored HOLD verdicts at score 0 with no price to speak of.
    expect(await r.store.verdicts.latest("SOL")).toBeNull();
    expect(await r.store.verdicts.latest("TAO")).toBeNull();
    const verdictTimes = r.events.filter((e) => e.event === "verdict.new").map((e) => Date.parse(e.timestamp));
    expect(verdictTimes).toHaveLength(13 + 7);
    expect(verdictTimes.filter((t) => t > lastLive && t < back)).toEqual([]);
    // Before the gap the verdicts carry the regime of 01:00; after it that row is 34 hours old,
    // the regime then and not now, so UNKNOWN until the detector has seen the bars that came back.
    const regimes = r.events.filter((e) => e.event === "verdict.new").map((e) => (e.data as { regime: string }).regime);
    expect(regimes).toEqual([...Array<string>(13).fill("BULL_TRENDING"), ...Array<string>(7).fill("UNKNOWN")]);
    // Councils: BTC's sessions stop and resume with the price; TAO's and SOL's never start.
    const sessions = r.events.filter((e) => e.event === "council.new").map((e) => `${String((e.data as { asset?: unknown }).asset)}@${e.timestamp}`);
    expect(sessions).toEqual(
      [start, start + 30 * MIN, lastLive, back, back + 30 * MIN].map((t) => `BTC@${new Date(t).toISOString()}`),
    );
    expect(await r.store.councilSessions.latest("TAO")).toBeNull();
    expect(await r.store.councilSessions.latest("SOL")).toBeNull();
    // Where a gap starts and ends is logged once each, not on each of its hundreds of slots.
    const gapLines = r.log.lines.filter((l) => typeof l.msg === "string" && l.msg.includes("live price")).map((l) => `${String(l.actorId)}: ${String(l.msg)}`);
    expect(gapLines.sort()).toEqual(
      [
        "BTC: no live price: BTC Judiciary verdicts paused until the price returns",
        "BTC: live price back: BTC Judiciary verdicts resumed",
        "ETH: no live price: ETH Judiciary verdicts paused until the price returns",
        "ETH: live price back: ETH Judiciary verdicts resumed",
        "SOL: no live price: SOL Judiciary verdicts paused until the price returns",
        "TAO: no live price: TAO Judiciary verdicts paused until the price returns",
        "BTC: no live price: BTC council sessions paused until the price returns",
        "BTC: live price back: BTC council sessions resumed",
        "SOL: no live price: SOL council sessions paused until the price returns",
        "TAO: no live price: TAO council sessions paused until the price returns",
      ].sort(),
    );
  });

  it("a verdict turn that failed after storing its verdict: the next turn sends that verdict's verdict.new once", async () => {
    const start = dayWith(false) + 10 * HOUR;
    // The hourly pruning fails once, after the verdict was stored: the turn is rolled back.
    const { verdicts, flaky, pruning } = failingPruning();
    r = await rig(start - 10 * MIN, {}, { verdicts: flaky });
    await r.advance(10 * MIN);
    expect((await verdicts.verdicts.latest("BTC"))?.at).toBe(start);
    expect(r.events.filter((e) => e.event === "verdict.new")).toHaveLength(2);
    pruning.fails = false;
    r.clock.set(start + 5 * MIN);
    await r.host.runDue();
    await r.dispatcher.flush();
    const sent = r.events.filter((e) => e.event === "verdict.new");
    // 09:50, 09:55, then 10:00 (announced by the 10:05 turn) and 10:05: one event per stored verdict.
    expect(sent).toHaveLength(4);
    const atStart = await verdicts.verdicts.byId(verdictId("BTC", start));
    expect(atStart).not.toBeNull();
    expect(sent[2]?.data).toEqual(verdictNewData(atStart!.verdict));
    // Stamped at its own 5-minute slot, before the 10:05 verdict's: the envelope is the only time
    // a subscriber gets, and the late turn's instant would name the wrong ruling.
    const stamps = sent.map((e) => Date.parse(e.timestamp));
    expect(stamps[2]).toBeGreaterThanOrEqual(start);
    expect(stamps[2]).toBeLessThan(start + 5 * MIN);
    expect(stamps[3]).toBeGreaterThanOrEqual(start + 5 * MIN);
    expect([...stamps].sort((x, y) => x - y)).toEqual(stamps);
    expect((await verdicts.verdicts.latest("BTC"))?.at).toBe(start + 5 * MIN);
    await verdicts.close();
  });

  it("a late verdict turn that failed after storing its slots: the next turn sends every one of their verdict.new, oldest first", async () => {
    const start = dayWith(false) + 10 * HOUR;
    const { verdicts, flaky, pruning } = failingPruning();
    r = await rig(start - 15 * MIN, {}, { verdicts: flaky });
    await r.host.runDue();
    // The turn of 10:00 runs 15 minutes late: it makes 09:50, 09:55 and 10:00, stores all three,
    // and fails on the hourly pruning, so its events are rolled back.
    r.clock.set(start);
    await r.host.runDue();
    await r.dispatcher.flush();
    const stored = [5, 10, 15].map((m) => start - 15 * MIN + m * MIN);
    for (const at of stored) expect(await verdicts.verdicts.byId(verdictId("BTC", at))).not.toBeNull();
    expect(r.events.filter((e) => e.event === "verdict.new").map((e) => Date.parse(e.timestamp))).toEqual([start - 15 * MIN]);
    pruning.fails = false;
    r.clock.set(start + 5 * MIN);
    await r.host.runDue();
    await r.dispatcher.flush();
    const sent = r.events.filter((e) => e.event === "verdict.new");
    // One event per stored verdict, each stamped in its own slot and carrying that slot's ruling.
    expect(sent.map((e) => Math.floor(Date.parse(e.timestamp) / (5 * MIN)) * 5 * MIN)).toEqual([start - 15 * MIN, ...stored, start + 5 * MIN]);
    for (const [i, at] of stored.entries()) {
      const entry = await verdicts.verdicts.byId(verdictId("BTC", at));
      expect(sent[i + 1]?.data).toEqual(verdictNewData(entry!.verdict));
    }
    expect(new Set(sent.map((e) => e.id)).size).toBe(sent.length);
    await verdicts.close();
  });

  it("a council turn whose session write landed but failed to answer: the next turn sends that session's council.new once", async () => {
    const start = dayWith(false) + 10 * HOUR;
    const sessions = openSqliteStore(":memory:");
    let lateAnswer = false;
    // The write lands, then the call fails (a store that timed out after writing): rolled back.
    const flaky = {
      ...sessions.councilSessions,
      save: async (session: Parameters<Store["councilSessions"]["save"]>[0]) => {
        await sessions.councilSessions.save(session);
        if (lateAnswer) throw new Error("store did not answer in time");
      },
      latest: sessions.councilSessions.latest.bind(sessions.councilSessions),
    };
    r = await rig(start - 30 * MIN, { sessions: flaky });
    await r.advance(0);
    lateAnswer = true;
    await r.advance(30 * MIN);
    expect(r.events.filter((e) => e.event === "council.new")).toHaveLength(COUNCILS.length);
    lateAnswer = false;
    r.clock.set(start + 30 * MIN);
    await r.host.runDue();
    await r.dispatcher.flush();
    const sent = r.events.filter((e) => e.event === "council.new");
    // Per council: 09:30, then the 10:00 session announced by the 10:30 turn, then 10:30's.
    expect(sent).toHaveLength(3 * COUNCILS.length);
    for (const asset of COUNCILS) {
      const stored = await sessions.councilSessions.latest(asset, start);
      expect(stored?.at).toBe(start);
      const ofAsset = sent.filter((e) => (e.data as { asset?: string }).asset === asset);
      expect(ofAsset).toHaveLength(3);
      expect(ofAsset[1]?.data).toEqual(councilNewData(stored!));
      // Stamped at the session's own slot, not at the 10:30 turn that announced it.
      const stamps = ofAsset.map((e) => Date.parse(e.timestamp));
      expect(stamps[1]).toBeGreaterThanOrEqual(start);
      expect(stamps[1]).toBeLessThan(start + 30 * MIN);
      expect(stamps[2]).toBeGreaterThan(stamps[1]!);
      expect((await sessions.councilSessions.latest(asset))?.at).toBe(start + 30 * MIN);
    }
    await sessions.close();
  });

  it("a failed turn stores nothing and publishes nothing; the next firing stores the session once", async () => {
    const start = dayWith(false) + 10 * HOUR;
    let outage = true;
    const sessions = openSqliteStore(":memory:");
    // A store outage on the session write: the turn fails after deliberating.
    const flaky = {
      ...sessions.councilSessions,
      save: async (s: Parameters<Store["councilSessions"]["save"]>[0]) => {
        if (outage) throw new Error("store unavailable");
        await sessions.councilSessions.save(s);
      },
      latest: sessions.councilSessions.latest.bind(sessions.councilSessions),
    };
    r = await rig(start, { sessions: flaky });
    await r.advance(0);
    for (const asset of COUNCILS) expect(await sessions.councilSessions.latest(asset)).toBeNull();
    expect(r.events.filter((e) => e.event === "council.new")).toHaveLength(0);
    expect(r.log.lines.some((l) => l.msg === "actor turn failed; its changes were rolled back")).toBe(true);
    outage = false;
    // Nothing was remembered as done: the next 30-minute firing deliberates and stores.
    await r.advance(30 * MIN);
    for (const asset of COUNCILS) expect((await sessions.councilSessions.latest(asset))?.at).toBe(start + 30 * MIN);
    expect(r.events.filter((e) => e.event === "council.new")).toHaveLength(3);
    await sessions.close();
  });

  it("stamps verdict.new and council.new at the slot they are about, also when the turn ran late (a replay step)", async () => {
    const start = dayWith(false) + 10 * HOUR;
    const late = await rig(start, { turnOffsetMs: 30_000 }, { turnOffsetMs: 30_000 });
    r = late;
    // The turns due 30 s after the start's slot fire only at the next step, 5 minutes on.
    await late.advance(5 * MIN);
    expect((await late.store.verdicts.latest("BTC"))?.at).toBe(start);
    expect((await late.store.councilSessions.latest("BTC"))?.at).toBe(start);
    const stampOf = (event: string) => Date.parse(late.events.filter((e) => e.event === event).at(-1)?.timestamp ?? "");
    for (const event of ["verdict.new", "council.new"]) {
      expect(stampOf(event), event).toBeGreaterThanOrEqual(start);
      expect(stampOf(event), event).toBeLessThan(start + 5 * MIN);
    }
  });

  it("a verdict turn held up past whole slots (a busy host at replay speed) also makes the slots it skipped, as turns on time would have", async () => {
    const start = dayWith(false) + 10 * HOUR;
    const onTime = await rig(start);
    await onTime.advance(15 * MIN);
    const late = await rig(start);
    r = late;
    await late.advance(0);
    // The 10:05 and 10:10 firings never came on time: the next turn runs at 10:15.
    late.clock.set(start + 15 * MIN);
    await late.host.runDue();
    await late.dispatcher.flush();
    try {
      for (const asset of ASSETS) {
        for (let at = start; at <= start + 15 * MIN; at += 5 * MIN) {
          const made = await late.store.verdicts.byId(verdictId(asset, at));
          expect(made?.at, `${asset} ${new Date(at).toISOString()}`).toBe(at);
          expect(made?.verdict).toEqual((await onTime.store.verdicts.byId(verdictId(asset, at)))?.verdict);
        }
      }
      // One verdict.new per slot, oldest first, each stamped in its own slot.
      const stamps = late.events.filter((e) => e.event === "verdict.new").map((e) => Date.parse(e.timestamp));
      expect(stamps.map((t) => Math.floor(t / (5 * MIN)) * 5 * MIN)).toEqual([0, 1, 2, 3].map((k) => start + k * 5 * MIN));
      // Said once per asset, for an operator whose host is too slow for the schedule.
      const said = late.log.lines.filter((l) => l.msg === "verdict turn ran late: made the slots it skipped");
      expect(said.map((l) => [l.asset, l.slots]).sort()).toEqual(ASSETS.map((a) => [a, 2]).sort());
      expect(onTime.log.lines.filter((l) => l.msg === "verdict turn ran late: made the slots it skipped")).toEqual([]);
    } finally {
      await onTime.host.shutdown();
      await onTime.store.close();
    }
  });

  it("scores each turn, and each slot a late turn makes, with the signal weights the store holds then (written by any process)", async () => {
    const start = dayWith(false) + 10 * HOUR;
    // Its own cache of the weights, as a replica that did not write them has.
    r = await rig(start, {}, (store) => ({ weights: new CachedMultipliers(store.signalWeights) }));
    await r.store.regimeHistory.record({ at: start - HOUR, report: bullReport(start - HOUR) });
    const multipliersAt = async (at: number) => {
      const made = await r!.store.verdicts.byId(verdictId("BTC", at));
      expect(made, new Date(at).toISOString()).not.toBeNull();
      return [...new Set(made!.verdict.evidence.filter((e) => e.status === "LIVE").map((e) => e.multiplier))];
    };
    await r.advance(5 * MIN);
    expect(await multipliersAt(start + 5 * MIN)).toEqual([1]);
    // Another process's WeightsActor writes a cycle straight to the store.
    const rows = SIGNAL_KEYS.map((signal_key) => ({ signal_key, regime: "BULL_TRENDING" as const, multiplier: 1.2, accuracy: 0.6, data_points: 12, last_updated: new Date(start).toISOString() }));
    await r.store.signalWeights.saveCycle({ cycleAt: start, before: [], rows });
    await r.advance(10 * MIN);
    expect(await multipliersAt(start + 10 * MIN)).toEqual([1.2]);
    // A late turn (10:25, after 10:15 and 10:20 never fired) makes every slot with the new rows.
    await r.store.signalWeights.saveCycle({ cycleAt: start + 6 * HOUR, before: rows, rows: rows.map((w) => ({ ...w, multiplier: 1.44 })) });
    r.clock.set(start + 25 * MIN);
    await r.host.runDue();
    for (const at of [15, 20, 25].map((m) => start + m * MIN)) expect(await multipliersAt(at)).toEqual([1.44]);
  });

  it("a turn a few market seconds before its slot (Dapr's rounding at replay speed) waits for the slot: its event is stamped there, not in the slot before", async () => {
    const start = dayWith(false) + 10 * HOUR;
    r = await rig(start);
    await r.advance(0);
    const rig_ = r;
    // 6 s before the 10:30 slot, within the early-firing tolerance: the turns are about 10:30.
    const slot = start + 30 * MIN;
    rig_.clock.set(slot - 6_000);
    // Market time reaches the slot 50 wall ms later (20 ms at 300x; the turns must wait for it).
    let reachedAt = 0;
    setTimeout(() => {
      rig_.clock.set(slot + 1_000);
      reachedAt = Date.now();
    }, 50);
    const [verdict, council] = await Promise.all([rig_.host.proxy(VerdictActor, "BTC").refresh(), rig_.host.proxy(CouncilActor, "BTC").refresh()]);
    const doneAt = Date.now();
    await rig_.dispatcher.flush();
    expect(verdict.at).toBe(slot);
    expect(council).toEqual({ outcome: "session", at: slot });
    expect(reachedAt).toBeGreaterThan(0);
    expect(doneAt).toBeGreaterThanOrEqual(reachedAt);
    for (const event of ["verdict.new", "council.new"]) {
      const stamp = Date.parse(rig_.events.filter((e) => e.event === event && (event === "verdict.new" || (e.data as { asset?: string }).asset === "BTC")).at(-1)?.timestamp ?? "");
      // A subscriber reads a stamp in [09:25, 10:30) as the slot before's ruling.
      expect(stamp, event).toBeGreaterThanOrEqual(slot);
      expect(stamp, event).toBeLessThan(slot + 5 * MIN);
    }
  });

  it("a refresh nudge deliberates only when the current slot has no session", async () => {
    const start = dayWith(false) + 10 * HOUR;
    r = await rig(start);
    await r.advance(0);
    expect(await r.host.proxy(CouncilActor, "TAO").refresh()).toEqual({ outcome: "fresh", at: start });
    r.clock.set(start + 31 * MIN);
    expect(await r.host.proxy(CouncilActor, "TAO").refresh()).toEqual({ outcome: "session", at: start + 30 * MIN });
    expect((await r.store.councilSessions.latest("TAO"))?.at).toBe(start + 30 * MIN);
  });
});
