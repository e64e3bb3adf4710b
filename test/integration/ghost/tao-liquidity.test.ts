import { afterEach, describe, expect, it } from "vitest";
import { ManualClock } from "../../../src/runtime/clocks/clock.js";
import { InProcessEventBus } from "../../../src/events/in-process-bus.js";
import { OutboxDispatcher } from "../../../src/events/outbox-dispatcher.js";
import { LocalActorHost } from "../../../src/runtime/local/local-host.js";
import { createLogger } from "../../../src/logging/logger.js";
import { captureLogger } from "../../support/capture-logger.js";
import { openStore } from "../../../src/store/open-store.js";
import type { Store } from "../../../src/store/store.js";
import { GhostTraderActor, type LiquidityProbe } from "../../../src/actors/ghost-trader-actor.js";
import { DEFAULT_COSTS } from "../../../src/domain/ghost/costs.js";
import { StandInInputs } from "../../support/ghost-stand-in-inputs.js";
import type { BarInput, LiquidityView } from "../../../src/domain/ghost/bar-input.js";
import type { Candle } from "../../../src/domain/signals/reading.js";
import type { Asset } from "../../../src/domain/signals/signal-keys.js";
import type { GhostBarSource } from "../../../src/application/ghost-bar-source.js";
import { CcxtOrderBookDepth, type OrderBookExchange } from "../../../src/feeds/live/ccxt-order-book.js";
import { ProviderError } from "../../../src/feeds/live/provider-error.js";
import { between, loadHourlyCandles } from "../../support/ghost-candles.js";
import { freshStoreUrl } from "../../support/service.js";

const H = 3_600_000;
const STEP = 5 * 60_000;

/**
 * A stand-in Binance answering `fetchOrderBook` in ccxt's documented unified shape
 * ({symbol, bids: [[price, amount]], asks, timestamp, datetime, nonce}), best levels first.
 * `levels` are [price, amount] pairs around a mid of 400 USD; `asked` records each symbol asked for.
 */
class StandInBook implements OrderBookExchange {
  readonly asked: string[] = [];
  constructor(private readonly answer: () => Promise<unknown>) {}
  async fetchOrderBook(symbol: string): Promise<unknown> {
    this.asked.push(symbol);
    return this.answer();
  }
}

function book(bids: [number, number][], asks: [number, number][]) {
  const timestamp = Date.parse("2026-03-23T12:00:00Z");
  return { symbol: "TAO/USDT", bids, asks, timestamp, datetime: new Date(timestamp).toISOString(), nonce: 1 };
}

/** Mid 400: ±0.5 % is 398..402. Levels outside the band must not count. */
const DEEP = book(
  [[399.9, 50], [399, 40], [398.5, 20], [397, 1000]],
  [[400.1, 50], [401, 40], [401.9, 15], [403, 1000]],
);
const DEEP_USD = 399.9 * 50 + 399 * 40 + 398.5 * 20 + 400.1 * 50 + 401 * 40 + 401.9 * 15;
const THIN = book(
  [[399.9, 5], [390, 5000]],
  [[400.1, 5], [410, 5000]],
);

describe("TAO liquidity probe over ccxt fetchOrderBook", () => {
  it("sums bid and ask USD depth within ±0.5 % of mid for TAO/USDT", async () => {
    const ex = new StandInBook(async () => DEEP);
    const depth = await new CcxtOrderBookDepth("binance", ex).depthUsd("TAO");
    expect(depth).toBeCloseTo(DEEP_USD, 6);
    expect(depth).toBeGreaterThanOrEqual(50_000);
    expect(ex.asked).toEqual(["TAO/USDT"]);
    expect(await new CcxtOrderBookDepth("binance", new StandInBook(async () => THIN)).depthUsd("TAO")).toBeCloseTo(399.9 * 5 + 400.1 * 5, 6);
  });

  it("fails with a ProviderError on a timeout, a ccxt error, a malformed book or an empty side", async () => {
    const slow = new CcxtOrderBookDepth("binance", new StandInBook(() => new Promise((r) => setTimeout(() => r(DEEP), 2_000))), 50);
    await expect(slow.depthUsd("TAO")).rejects.toMatchObject({ kind: "timeout" });
    class NetworkError extends Error {}
    const down = new CcxtOrderBookDepth("binance", new StandInBook(() => Promise.reject(new NetworkError("ECONNRESET"))));
    await expect(down.depthUsd("TAO")).rejects.toMatchObject({ kind: "network" });
    const garbled = new CcxtOrderBookDepth("binance", new StandInBook(async () => ({ bids: "none" })));
    await expect(garbled.depthUsd("TAO")).rejects.toBeInstanceOf(ProviderError);
    const oneSided = new CcxtOrderBookDepth("binance", new StandInBook(async () => book([[399, 10]], [])));
    await expect(oneSided.depthUsd("TAO")).rejects.toMatchObject({ kind: "malformed" });
  });
});

/** Real TAO candles with the technical stand-in engines; the liquidity comes from the actor. */
class TaoSource implements GhostBarSource {
  readonly inputs = new Map<number, BarInput>();
  constructor(readonly candles: readonly Candle[]) {
    const s = new StandInInputs("TAO");
    for (const c of candles) this.inputs.set(c.t, s.next(c));
  }
  bars(_asset: Asset, at: number, limit: number): readonly Candle[] {
    return this.candles.filter((c) => c.t + H <= at).slice(-limit);
  }
  async input(_asset: Asset, candle: Candle, liquidity: LiquidityView): Promise<BarInput> {
    const input = this.inputs.get(candle.t);
    if (input === undefined) throw new Error("no such bar");
    return { ...input, liquidity };
  }
}

// With depth available, the stand-in engines open a TAO trade on this afternoon's bars.
const START = Date.parse("2024-05-15T12:00:00Z");
const END = Date.parse("2024-05-15T20:00:00Z");
const candles = between(loadHourlyCandles("TAO"), "2024-04-01", "2024-05-16");

describe("TAO Ghost Trader with the live liquidity probe (every 60 s)", () => {
  let store: Store | null = null;
  let host: LocalActorHost | null = null;

  afterEach(async () => {
    await host?.shutdown();
    await store?.close();
    host = null;
    store = null;
  });

  /** Runs the TAO trader from START to END in 5-minute market steps; counts probe calls. */
  async function run(probe: LiquidityProbe) {
    store = await openStore(freshStoreUrl("sqlite", "taoliq"));
    const clock = new ManualClock(START);
    const { logger, lines } = captureLogger("info");
    host = new LocalActorHost({ store: store.actorState, clock, logger, dispatcher: new OutboxDispatcher(store.actorOutbox, new InProcessEventBus(), logger, 60_000), pollIntervalMs: 0 });
    let probes = 0;
    const counted: LiquidityProbe = (a) => {
      probes++;
      return probe(a);
    };
    const source = new TaoSource(candles);
    const s = store;
    host.register(GhostTraderActor, (ctx) => new GhostTraderActor(ctx, { source, ledger: s.ghostLedger, costs: DEFAULT_COSTS, liquidityProbe: counted, barTurnOffsetMs: 0 }));
    await host.start();
    await host.proxy(GhostTraderActor, "TAO").ensureScheduled();
    const afterEntry: (string | null)[] = [];
    for (let t = START; t <= END; t += STEP) {
      clock.set(t);
      await host.runDue();
      const snap = await s.ghostLedger.snapshot("TAO");
      afterEntry.push(snap?.position?.id ?? null);
    }
    const snap = await s.ghostLedger.snapshot("TAO");
    const closed = await s.ghostLedger.closed("TAO");
    return { snap, closed, probes, lines, everInTrade: afterEntry.some((id) => id !== null) };
  }

  it("SUFFICIENT depth: the status shows it and the trader enters", async () => {
    const ex = new StandInBook(async () => DEEP);
    const r = await run((a) => new CcxtOrderBookDepth("binance", ex).depthUsd(a));
    // 8 market hours probed once a minute (coalesced per 5-minute step): one probe per step.
    expect(r.probes).toBe((END - START) / STEP + 1);
    expect(r.snap?.liquidity).toEqual({ status: "SUFFICIENT", depthUsd: expect.closeTo(DEEP_USD, 6) as number, live: true });
    expect(r.everInTrade || r.closed.length > 0).toBe(true);
  }, 60_000);

  it("INSUFFICIENT depth blocks every entry and the trigger names liquidity", async () => {
    const ex = new StandInBook(async () => THIN);
    const r = await run((a) => new CcxtOrderBookDepth("binance", ex).depthUsd(a));
    expect(r.snap?.liquidity).toEqual({ status: "INSUFFICIENT", depthUsd: expect.closeTo(4000, 6) as number, live: true });
    expect(r.everInTrade).toBe(false);
    expect(r.closed).toEqual([]);
    expect(r.snap?.gates?.liquidity).toBe(false);
    expect(r.snap?.gates?.liquidityStatus).toBe("INSUFFICIENT");
    expect(r.snap?.gates?.trigger ?? "").toMatch(/liquidity/i);
  }, 60_000);

  it("a failing probe leaves liquidity UNKNOWN with no depth, and gate 0 shut: live, unmeasured depth is no pass", async () => {
    const ex = new StandInBook(() => Promise.reject(new Error("exchange down")));
    const r = await run((a) => new CcxtOrderBookDepth("binance", ex).depthUsd(a));
    expect(r.probes).toBeGreaterThan(0);
    expect(r.snap?.liquidity).toEqual({ status: "UNKNOWN", depthUsd: null, live: true });
    expect(r.snap?.gates?.liquidityStatus).toBe("UNKNOWN");
    expect(r.snap?.gates?.liquidity).toBe(false);
    expect(r.snap?.gates?.trigger ?? "").toMatch(/depth unknown/);
    // The same bars that entered with SUFFICIENT depth above.
    expect(r.everInTrade).toBe(false);
    expect(r.closed).toEqual([]);
    // Down for the whole run: one warning where it started, not one per probe.
    const warned = r.lines.filter((l) => l.level === 40);
    expect(r.probes).toBeGreaterThan(90);
    expect(warned.map((l) => [l.msg, l.err])).toEqual([["liquidity probe failing: TAO entries wait (gate 0 shut)", expect.stringContaining("exchange down") as string]]);
  }, 60_000);
});

describe("BTC, ETH and SOL probe their depth live too (DECISIONS 7: their gates have the TAO form)", () => {
  it.each(["BTC", "ETH", "SOL"] as const)("%s asks for its own pair every 60 s and reads the answer against 50,000 USD", async (asset) => {
    const store = await openStore(freshStoreUrl("sqlite", `liq-${asset}`));
    const clock = new ManualClock(START);
    const host = new LocalActorHost({ store: store.actorState, clock, logger: createLogger("silent"), pollIntervalMs: 0 });
    try {
      const ex = new StandInBook(async () => THIN);
      const noBars: GhostBarSource = { bars: () => [], input: () => Promise.reject(new Error("no bars in this test")) };
      host.register(GhostTraderActor, (ctx) => new GhostTraderActor(ctx, { source: noBars, ledger: store.ghostLedger, costs: DEFAULT_COSTS, liquidityProbe: (a) => new CcxtOrderBookDepth("binance", ex).depthUsd(a), barTurnOffsetMs: 0 }));
      await host.start();
      const trader = host.proxy(GhostTraderActor, asset);
      // Before the first answer, live depth is not measured: gate 0 would stay shut.
      expect(await trader.liquidity()).toEqual({ status: "UNKNOWN", depthUsd: null, live: true });
      await trader.ensureScheduled();
      for (let t = START; t <= START + 3 * 60_000; t += 60_000) {
        clock.set(t);
        await host.runDue();
      }
      expect(ex.asked).toEqual([`${asset}/USDT`, `${asset}/USDT`, `${asset}/USDT`, `${asset}/USDT`]);
      expect(await trader.liquidity()).toEqual({ status: "INSUFFICIENT", depthUsd: expect.closeTo(4000, 6) as number, live: true });
    } finally {
      await host.shutdown();
      await store.close();
    }
  });
});
