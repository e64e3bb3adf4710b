import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ManualClock } from "../../../src/runtime/clocks/clock.js";
import { InProcessEventBus } from "../../../src/events/in-process-bus.js";
import { OutboxDispatcher } from "../../../src/events/outbox-dispatcher.js";
import type { EventEnvelope } from "../../../src/events/event-envelope.js";
import { LocalActorHost } from "../../../src/runtime/local/local-host.js";
import { createLogger } from "../../../src/logging/logger.js";
import { openStore } from "../../../src/store/open-store.js";
import type { Store } from "../../../src/store/store.js";
import { GhostTraderActor, type LiquidityProbe } from "../../../src/actors/ghost-trader-actor.js";
import { DEFAULT_COSTS } from "../../../src/domain/ghost/costs.js";
import { StandInInputs } from "../../support/ghost-stand-in-inputs.js";
import { runBacktest } from "../../../src/domain/ghost/backtest.js";
import type { BarInput, LiquidityView } from "../../../src/domain/ghost/bar-input.js";
import type { Candle } from "../../../src/domain/signals/reading.js";
import type { Asset } from "../../../src/domain/signals/signal-keys.js";
import type { GhostBarSource } from "../../../src/application/ghost-bar-source.js";
import type { ClosedTrade } from "../../../src/domain/ghost/trade.js";
import { exitBarOf } from "../../../src/domain/ghost/position-exits.js";
import type { GhostLedgerRepository } from "../../../src/store/ports/ghost-ledger.js";
import { ghostSignalDataSchema } from "../../../src/http/schemas/ghost.js";
import { between, loadHourlyCandles } from "../../support/ghost-candles.js";
import { freshStoreUrl } from "../../support/service.js";
import { openSqlite } from "../../../src/store/sqlite/database.js";
import { waitFor } from "../../support/wait-for.js";

const H = 3_600_000;
const STEP = 5 * 60_000;
const START = Date.parse("2024-01-09T00:00:00Z");
const END = Date.parse("2024-01-11T00:00:00Z");

/**
 * BarInputs assembled by the test from real ETH candles (Binance, bundled) with the technical
 * stand-in for the judiciary and regime engines: the real engines' calibrated confidence never
 * clears a gate on the bundled history (every trader stands aside), and this suite is about the
 * actor's trade lifecycle, which needs trades to open and close.
 * `failOnce` makes the input of one bar throw the first time it is asked for: a turn that fails
 * half-way through its catch-up.
 */
class CandleSource implements GhostBarSource {
  readonly inputs = new Map<number, BarInput>();
  readonly failOnce = new Set<number>();
  constructor(readonly candles: readonly Candle[]) {
    const s = new StandInInputs("ETH");
    for (const c of candles) this.inputs.set(c.t, s.next(c));
  }
  bars(_asset: Asset, at: number, limit: number): readonly Candle[] {
    return this.candles.filter((c) => c.t + H <= at).slice(-limit);
  }
  async input(_asset: Asset, candle: Candle, liquidity: LiquidityView): Promise<BarInput> {
    if (this.failOnce.delete(candle.t)) throw new Error(`input of ${new Date(candle.t).toISOString()} unavailable`);
    const input = this.inputs.get(candle.t);
    if (input === undefined) throw new Error("no such bar");
    return { ...input, liquidity };
  }
}

const candles = between(loadHourlyCandles("ETH"), "2023-09-01", "2024-01-12");

/** The real ledger, except that a step can land and then fail to answer (a store that timed out after writing). */
function landingThenFailing(inner: GhostLedgerRepository, failing: () => boolean): GhostLedgerRepository {
  return {
    saveClosed: (trades) => inner.saveClosed(trades),
    closed: (asset) => inner.closed(asset),
    closedChecked: (asset) => inner.closedChecked(asset),
    saveSnapshot: (snapshot) => inner.saveSnapshot(snapshot),
    saveStep: async (trades, snapshot, superseded) => {
      await inner.saveStep(trades, snapshot, superseded);
      if (failing()) throw new Error("store did not answer in time");
    },
    snapshot: (asset) => inner.snapshot(asset),
    snapshotsChecked: (asset) => inner.snapshotsChecked(asset),
    ensureFirstSprint: (at, recordedAt) => inner.ensureFirstSprint(at, recordedAt),
    addSprint: (mark) => inner.addSprint(mark),
    sprints: () => inner.sprints(),
  };
}

describe("GhostTrader actor on the local host (ETH, real candles)", () => {
  let store: Store;
  let host: LocalActorHost;
  let clock: ManualClock;
  let source: CandleSource;
  let events: EventEnvelope[];
  /** For each ghost.signal, whether the ledger already showed it when the event was delivered. */
  let persistedBeforeEvent: boolean[];
  /** Set by a test: the next step lands in the ledger, then the turn fails (and is rolled back). */
  let nextStepLandsThenFails: boolean;
  let storeUrl: string;
  /** Delivers the ghost.signal events the tests read (`events`). */
  let bus: InProcessEventBus;

  beforeEach(async () => {
    nextStepLandsThenFails = false;
    storeUrl = freshStoreUrl("sqlite", "ghostactor");
    store = await openStore(storeUrl);
    clock = new ManualClock(START);
    source = new CandleSource(candles);
    events = [];
    persistedBeforeEvent = [];
    bus = new InProcessEventBus();
    bus.subscribe("ghost.signal", async (e) => {
      events.push(e);
      const d = ghostSignalDataSchema.parse(e.data);
      if (d.action === "EXIT") persistedBeforeEvent.push((await store.ghostLedger.closed("ETH")).some((t) => t.id === d.trade_id));
      else persistedBeforeEvent.push((await store.ghostLedger.snapshot("ETH"))?.position?.id === d.trade_id || d.action === "TP1");
    });
    host = await startHost(bus, null);
    await host.proxy(GhostTraderActor, "ETH").ensureScheduled();
  });

  /** A host over the test's store and clock; `liquidityProbe` as in live mode (null: replay). */
  async function startHost(bus: InProcessEventBus, liquidityProbe: LiquidityProbe | null): Promise<LocalActorHost> {
    const logger = createLogger("silent");
    const started = new LocalActorHost({ store: store.actorState, clock, logger, dispatcher: new OutboxDispatcher(store.actorOutbox, bus, logger, 60_000), pollIntervalMs: 0 });
    const ledger = landingThenFailing(store.ghostLedger, () => nextStepLandsThenFails && !(nextStepLandsThenFails = false));
    started.register(GhostTraderActor, (ctx) => new GhostTraderActor(ctx, { source, ledger, costs: DEFAULT_COSTS, liquidityProbe, barTurnOffsetMs: 0 }));
    await started.start();
    return started;
  }

  afterEach(async () => {
    await host.shutdown();
    await store.close();
  });

  async function runUntil(end: number, everyStep?: () => Promise<void>): Promise<void> {
    for (let t = START; t <= end; t += STEP) {
      clock.set(t);
      await host.runDue();
      if (everyStep) await everyStep();
    }
  }

  /** The same step function over the same inputs, from the actor's first bar (its trades are `synthetic`). */
  function expectedTrades() {
    const from = START - H;
    return runBacktest("ETH", candles.filter((c) => c.t >= from && c.t + H <= END).map((c) => source.inputs.get(c.t) as BarInput)).trades;
  }

  it("enters, closes half at TP1 and exits, storing each trade before its ghost.signal is delivered", async () => {
    await runUntil(END);
    const expected = expectedTrades();
    expect(expected.length).toBeGreaterThanOrEqual(2);
    await waitFor(async () => events.length >= expected.length * 2, 5_000, "ghost.signal deliveries");

    const ledger = await store.ghostLedger.closed("ETH");
    expect(ledger.map((t) => [t.entryTime, t.exitTime, t.pnlUsd, t.tp1PnlUsd, t.exitReason])).toEqual(
      expected.map((t) => [t.entryTime, t.exitTime, t.pnlUsd, t.tp1PnlUsd, t.exitReason]),
    );
    expect(ledger.every((t) => t.origin === "live_paper" && t.valid)).toBe(true);

    const first = ledger[0];
    expect(first?.tp1PnlUsd).not.toBeNull();
    const ofFirst = events.map((e) => ghostSignalDataSchema.parse(e.data)).filter((d) => d.trade_id === first?.id);
    expect(ofFirst.map((d) => d.action)).toEqual(["ENTRY", "TP1", "EXIT"]);
    expect(ofFirst[0]).toMatchObject({ asset: "ETH", price: first?.entryPrice, size: first?.size, pnl_usd: null, is_paper: true });
    expect(ofFirst[1]?.size).toBeCloseTo((first?.size ?? 0) / 2, 8);
    expect(ofFirst[2]?.pnl_usd).toBe(first?.pnlUsd);
    // Event timestamps are the market time of the turn, never before the bar it reports closed.
    expect(Date.parse(events[0]?.timestamp ?? "")).toBeGreaterThanOrEqual((first?.entryTime ?? 0) + H);
    expect(persistedBeforeEvent.length).toBe(events.length);
    expect(persistedBeforeEvent.every(Boolean)).toBe(true);

    const snap = await store.ghostLedger.snapshot("ETH");
    expect(snap?.barT).toBe(END - H);
  }, 60_000);

  it("never enters twice: a turn that fails half-way and reminders that fire again change nothing", async () => {
    const expected = expectedTrades();
    const fillBar = expected[0]?.entryTime ?? 0;
    // A turn that steps the decision bar and then fails on the fill bar, in one catch-up: all of
    // it is rolled back and the next firing redoes both bars.
    source.failOnce.add(fillBar);
    await runUntil(fillBar - H);
    expect((await store.ghostLedger.snapshot("ETH"))?.barT).toBe(fillBar - 2 * H);
    // Two hours at once: one coalesced firing steps the decision bar, then fails on the fill bar.
    clock.set(fillBar + 2 * H);
    await host.runDue();
    expect(source.failOnce.size).toBe(0);
    expect((await store.ghostLedger.snapshot("ETH"))?.barT).toBe(fillBar - 2 * H);
    // The failed turn committed nothing: no event waits in the outbox, and none was published.
    expect(await store.actorOutbox.pending(10)).toEqual([]);
    expect(events).toEqual([]);
    // The next firings redo those bars; every step also nudges the actor once more.
    for (let t = fillBar + 2 * H + STEP; t <= END; t += STEP) {
      clock.set(t);
      await host.runDue();
      await host.proxy(GhostTraderActor, "ETH").step();
    }
    await waitFor(async () => events.length >= expected.length * 2, 5_000, "ghost.signal deliveries");
    // Every turn is over and the outbox is drained, so every event committed has been published:
    // a duplicate entry could not arrive after the checks below.
    await waitFor(async () => (await store.actorOutbox.pending(1)).length === 0, 5_000, "an empty outbox");

    const data = events.map((e) => ghostSignalDataSchema.parse(e.data));
    const entries = data.filter((d) => d.action === "ENTRY");
    expect(entries.length).toBe(new Set(entries.map((d) => d.trade_id)).size);
    expect(data.filter((d) => d.action === "EXIT").length).toBe(expected.length);
    const ledger = await store.ghostLedger.closed("ETH");
    expect(ledger.map((t) => [t.entryTime, t.pnlUsd])).toEqual(expected.map((t) => [t.entryTime, t.pnlUsd]));
    expect(source.failOnce.size).toBe(0);
  }, 60_000);
  it("a stored status that does not read back does not stop the trader: its next turn rewrites it and trades on", async () => {
    const expected = expectedTrades();
    const fillBar = expected[0]?.entryTime ?? 0;
    await runUntil(fillBar + H);
    expect((await store.ghostLedger.snapshot("ETH"))?.position?.entryTime).toBe(fillBar);
    // A status of a shape this build does not read, as an older build or a hand edit leaves it.
    const db = openSqlite(storeUrl.slice("sqlite:".length));
    try {
      expect(db.prepare("UPDATE ghost_snapshots SET body = json_set(body, '$.status', 'PAUSED') WHERE asset = 'ETH'").run().changes).toBe(1);
    } finally {
      db.close();
    }
    await expect(store.ghostLedger.snapshot("ETH")).rejects.toThrow(/status/);
    expect(await store.ghostLedger.snapshotsChecked("ETH")).toEqual({ snapshots: [], unreadable: ["ETH"] });

    for (let t = fillBar + H + STEP; t <= END; t += STEP) {
      clock.set(t);
      await host.runDue();
    }
    const snap = await store.ghostLedger.snapshot("ETH");
    expect(snap?.barT).toBe(END - H);
    const ledger = await store.ghostLedger.closed("ETH");
    expect(ledger.map((t) => [t.entryTime, t.exitTime, t.pnlUsd])).toEqual(expected.map((t) => [t.entryTime, t.exitTime, t.pnlUsd]));
    await waitFor(async () => events.length >= expected.length * 2, 5_000, "ghost.signal deliveries");
  }, 60_000);

  it("a turn whose step landed but which failed to commit: its signals go out with the next turn, stamped at their bar's close", async () => {
    const expected = expectedTrades();
    const fillBar = expected[0]?.entryTime ?? 0;
    await runUntil(fillBar);
    expect((await store.ghostLedger.snapshot("ETH"))?.barT).toBe(fillBar - H);
    // The turn at the fill bar's close stores the open position, then fails: rolled back, nothing sent.
    nextStepLandsThenFails = true;
    clock.set(fillBar + H);
    await host.runDue();
    expect(nextStepLandsThenFails).toBe(false);
    expect((await store.ghostLedger.snapshot("ETH"))?.position?.entryTime).toBe(fillBar);
    expect(await store.actorOutbox.pending(10)).toEqual([]);
    expect(events).toEqual([]);
    // The next hour's turn steps the fill bar again and announces the entry.
    clock.set(fillBar + 2 * H);
    await host.runDue();
    await waitFor(async () => events.length >= 3, 5_000, "the late ENTRY and TP1, and the EXIT");
    const sent = events.map((e) => ({ at: Date.parse(e.timestamp), data: ghostSignalDataSchema.parse(e.data) }));
    // On these candles the fill bar also reached TP1, and the next bar closed the rest.
    expect(sent.map((e) => e.data.action)).toEqual(["ENTRY", "TP1", "EXIT"]);
    expect(sent[0]?.data.price).toBe(expected[0]?.entryPrice);
    // The fill bar's signals are stamped when the failed turn ran (ETH's stamps keep their own
    // residue of the milliseconds modulo 8), not an hour later: the envelope is the only time a
    // subscriber gets. The bar this turn stepped for the first time carries this turn's time.
    expect(sent[0]?.at).toBeGreaterThanOrEqual(fillBar + H);
    expect(sent[0]?.at).toBeLessThan(fillBar + H + 8);
    expect(sent[1]?.at).toBeGreaterThan(sent[0]?.at ?? Infinity);
    expect(sent[1]?.at).toBeLessThan(fillBar + H + 16);
    expect(sent[2]?.at).toBeGreaterThanOrEqual(fillBar + 2 * H);
  }, 60_000);

  it("a failed turn's trade that the retried turn does not make again (a new depth reading in between) leaves the ledger", async () => {
    // Live mode: the depth probe answers every minute and gate 0 reads its last answer.
    let depthUsd = 1e12;
    await host.shutdown();
    host = await startHost(bus, async () => depthUsd);
    await host.proxy(GhostTraderActor, "ETH").ensureScheduled();
    const first = expectedTrades()[0];
    expect(first).toBeDefined();
    const fillBar = first?.entryTime ?? 0;
    const exitBar = exitBarOf(first as ClosedTrade);
    // One catch-up turn of these bars: decision, fill and exit (far fewer than a week's 168).
    expect(exitBar - fillBar).toBeLessThan(100 * H);
    await runUntil(fillBar - H);
    expect((await store.ghostLedger.snapshot("ETH"))?.barT).toBe(fillBar - 2 * H);

    // The turn after the exit bar's close enters, exits and stores the trade, then fails.
    nextStepLandsThenFails = true;
    clock.set(exitBar + H);
    await host.runDue();
    expect(nextStepLandsThenFails).toBe(false);
    expect((await store.ghostLedger.closed("ETH")).map((t) => [t.entryTime, t.exitTime])).toEqual([[first?.entryTime, first?.exitTime]]);

    // The order book thins out before the retry: the probe's answer shuts gate 0.
    depthUsd = 1;
    clock.set(exitBar + H + 60_000);
    await host.runDue();
    clock.set(exitBar + 2 * H);
    await host.runDue();

    // The retried turn stepped the same bars and never entered: the trade it did not make is gone.
    const snap = await store.ghostLedger.snapshot("ETH");
    expect(snap?.barT).toBe(exitBar + H);
    expect(snap?.liquidity.status).toBe("INSUFFICIENT");
    expect(snap?.position).toBeNull();
    expect(await store.ghostLedger.closed("ETH")).toEqual([]);
    expect(await store.actorOutbox.pending(10)).toEqual([]);
    expect(events).toEqual([]);
  }, 60_000);

  it("after an outage longer than a week, catches up a week per turn from the oldest bar, and trades as if it never stopped", async () => {
    // A trader launched at `early` applies its first bar; then its process is away for 23 days.
    const early = Date.parse("2023-12-20T00:00:00Z");
    const back = Date.parse("2024-01-12T00:00:00Z") + 7 * 60_000;
    const trader = host.proxy(GhostTraderActor, "ETH");
    clock.set(early + 7 * 60_000);
    expect((await trader.step()).applied).toBe(1);
    clock.set(back);
    const turns: number[] = [];
    for (let applied = -1; applied !== 0; ) {
      applied = (await trader.step()).applied;
      turns.push(applied);
    }
    // 552 bars closed meanwhile: three weeks and two days.
    expect(turns).toEqual([168, 168, 168, 48, 0]);
    const expected = runBacktest("ETH", candles.filter((c) => c.t >= early - H && c.t + H <= back).map((c) => source.inputs.get(c.t) as BarInput)).trades;
    expect(expected.length).toBeGreaterThanOrEqual(2);
    const ledger = await store.ghostLedger.closed("ETH");
    expect(ledger.map((t) => [t.entryTime, t.exitTime, t.pnlUsd, t.exitReason])).toEqual(expected.map((t) => [t.entryTime, t.exitTime, t.pnlUsd, t.exitReason]));
  });

  describe("a ghost restart is a clean slate", () => {
    const early = Date.parse("2023-12-20T00:00:00Z");
    const back = Date.parse("2024-01-12T00:00:00Z");
    const inputsFrom = (from: number) => candles.filter((c) => c.t >= from && c.t + H <= back).map((c) => source.inputs.get(c.t) as BarInput);
    /** The bar a trade's last fill happened in (a time exit is stamped at that bar's close). */
    const exitBar = (t: { exitTime: number; exitReason: string }) => (t.exitReason === "TIME_EXIT" ? t.exitTime - H : t.exitTime);
    const shape = (ts: readonly { entryTime: number; size: number; pnlUsd: number }[]) => ts.map((t) => [t.entryTime, t.size, t.pnlUsd]);

    /** Runs the trader from `early`, adds a restart mark for ETH at market time `at` once the clock passes it, then runs on to `back`. */
    async function runWithRestartAt(at: number): Promise<void> {
      const trader = host.proxy(GhostTraderActor, "ETH");
      clock.set(early + 7 * 60_000);
      await trader.step();
      for (let t = early + H; t <= at; t += H) {
        clock.set(t + 7 * 60_000);
        await trader.step();
      }
      await store.ghostLedger.addSprint({ id: "restart-test", scope: "ETH", at, reason: "test", recordedAt: new Date().toISOString() });
      for (let t = at + H; t <= back; t += H) {
        clock.set(t + 7 * 60_000);
        await trader.step();
      }
    }

    it("sizes the trades after a restart from the starting 10,000 USD, as a trader launched then would", async () => {
      const before = runBacktest("ETH", inputsFrom(early - H)).trades;
      const first = before[0];
      expect(first?.pnlUsd).not.toBe(0);
      // The bar after the first trade's exit bar: flat, and no entry decided in the exit bar.
      const at = exitBar(first as (typeof before)[number]) + H;
      await runWithRestartAt(at);
      const fresh = runBacktest("ETH", inputsFrom(at)).trades;
      expect(fresh.length).toBeGreaterThanOrEqual(2);
      const ledger = await store.ghostLedger.closed("ETH");
      expect(shape(ledger.filter((t) => t.entryTime < at))).toEqual(shape([first as (typeof before)[number]]));
      expect(shape(ledger.filter((t) => t.entryTime >= at))).toEqual(shape(fresh));
    }, 60_000);

    it("carries a position open at the restart to its exits, leaving its P&L out of the new sprint's equity", async () => {
      const before = runBacktest("ETH", inputsFrom(early - H)).trades;
      const first = before[0] as (typeof before)[number];
      // Mid-trade: the hour after the entry.
      const at = first.entryTime + H;
      await runWithRestartAt(at);
      const ledger = await store.ghostLedger.closed("ETH");
      expect(shape([ledger[0] as (typeof ledger)[number]])).toEqual(shape([first]));
      const fresh = runBacktest("ETH", inputsFrom(exitBar(first) + H)).trades;
      expect(fresh.length).toBeGreaterThanOrEqual(2);
      expect(shape(ledger.slice(1))).toEqual(shape(fresh));
    }, 60_000);
  });

  it("keeps the high-water mark through a host restart mid-trade and ends with the same trades", async () => {
    const expected = expectedTrades();
    const withTrail = expected.find((t) => t.tp1PnlUsd !== null);
    expect(withTrail).toBeDefined();
    // Walk until the position has hit TP1 and ratcheted its high-water mark at least once.
    let mid: { hwm: number; stopLoss: number } | null = null;
    let stopAt = START;
    for (let t = START; t <= END && mid === null; t += STEP) {
      clock.set(t);
      await host.runDue();
      const position = (await store.ghostLedger.snapshot("ETH"))?.position;
      if (position?.tp1Hit && position.hwm !== null) {
        mid = { hwm: position.hwm, stopLoss: position.stopLoss };
        stopAt = t;
      }
    }
    expect(mid).not.toBeNull();

    // The process goes away mid-trade; a new host on the same store picks the actor up.
    await host.shutdown();
    host = await startHost(new InProcessEventBus(), null);
    // Same market time: no new bar, so the restored activation holds the very position it had.
    expect((await host.proxy(GhostTraderActor, "ETH").step()).applied).toBe(0);
    const after = (await store.ghostLedger.snapshot("ETH"))?.position;
    expect(after).toMatchObject({ tp1Hit: true, hwm: mid?.hwm, stopLoss: mid?.stopLoss });

    for (let t = stopAt + STEP; t <= END; t += STEP) {
      clock.set(t);
      await host.runDue();
    }
    const ledger = await store.ghostLedger.closed("ETH");
    expect(ledger.map((t) => [t.entryTime, t.exitTime, t.pnlUsd, t.exitReason])).toEqual(
      expected.map((t) => [t.entryTime, t.exitTime, t.pnlUsd, t.exitReason]),
    );
  }, 60_000);
});
