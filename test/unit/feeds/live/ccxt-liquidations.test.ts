import ccxt from "ccxt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildSignalsSnapshot } from "../../../../src/domain/signals/snapshot.js";
import { ManualClock } from "../../../../src/runtime/clocks/clock.js";
import { CcxtLiquidationsProvider, GATE_LIQUIDATION_OPTIONS } from "../../../../src/feeds/live/ccxt-liquidations.js";
import { ProviderError } from "../../../../src/feeds/live/provider-error.js";
import { ReadingCache } from "../../../../src/feeds/live/reading-cache.js";
import { ResilientProvider } from "../../../../src/feeds/live/resilient-provider.js";
import { FakeProviderServer, type FakeAnswer } from "./fake-provider-server.js";

const H = 3_600_000;
/** End of the last closed hour at the test's clock. */
const END = Date.parse("2026-03-23T10:00:00Z");
const sec = (ms: number) => ms / 1000;

/** Gate's documented GET /spot/currencies rows (ccxt loads currencies with the markets). */
const currencies = ["BTC", "USDT"].map((currency) => ({
  currency,
  name: currency,
  delisted: false,
  withdraw_disabled: false,
  withdraw_delayed: false,
  deposit_disabled: false,
  trade_disabled: false,
  chain: currency === "BTC" ? "BTC" : "ETH",
  chains: [{ name: currency === "BTC" ? "BTC" : "ETH", addr: "", withdraw_disabled: false, withdraw_delayed: false, deposit_disabled: false }],
}));

/** Gate's documented GET /futures/usdt/contracts, reduced to the BTC_USDT perpetual. */
const contracts = [
  {
    name: "BTC_USDT",
    type: "direct",
    quanto_multiplier: "0.0001",
    mark_type: "index",
    mark_price: "68000",
    index_price: "68001.2",
    last_price: "68000.1",
    order_price_round: "0.1",
    mark_price_round: "0.01",
    order_price_deviate: "0.2",
    leverage_min: "1",
    leverage_max: "125",
    maintenance_rate: "0.004",
    order_size_min: 1,
    order_size_max: 1000000,
    funding_rate: "0.0001",
    funding_interval: 28800,
    funding_next_apply: sec(END) + 8 * 3600,
    in_delisting: false,
    status: "trading",
    create_time: 1569398400,
  },
];

/** One row of GET /futures/usdt/liq_orders as Gate documents it: size > 0 a long position. */
interface Row {
  time: number;
  contract: string;
  size: number;
  order_size: number;
  order_price: string;
  fill_price: string;
  left: number;
}
const row = (atMs: number, size: number, fill: string, order = fill, left = 0): Row => ({
  time: sec(atMs),
  contract: "BTC_USDT",
  size,
  order_size: -size,
  order_price: order,
  fill_price: fill,
  left,
});

/**
 * Gate's liquidation history: answers `from`..`to` (seconds, both ends inclusive here, so the
 * adapter must not count a row on an hour boundary twice), newest `limit` rows at most.
 */
function liqOrders(rows: readonly Row[], path: string): FakeAnswer {
  const q = new URL(path, "http://x").searchParams;
  const from = Number(q.get("from"));
  const to = Number(q.get("to"));
  const limit = Number(q.get("limit") ?? "100");
  if (!(to - from <= 3600)) return { status: 400, body: { label: "INVALID_PARAM_VALUE", message: "interval between from and to exceeds 3600" } };
  return { body: rows.filter((r) => r.time >= from && r.time <= to && r.contract === q.get("contract")).slice(-limit) };
}

describe("CcxtLiquidationsProvider (ccxt gate) against a local HTTP server", () => {
  let server: FakeProviderServer;
  let liquidations: (path: string) => FakeAnswer;
  let clock: ManualClock;
  const exchange = (timeout = 2000) => {
    const gate = new ccxt.gate({ enableRateLimit: false, timeout, options: GATE_LIQUIDATION_OPTIONS });
    const api = (gate.urls["api"] as Record<string, Record<string, string>>)["public"] as Record<string, string>;
    api["spot"] = `${server.url}/api/v4`;
    api["futures"] = `${server.url}/api/v4`;
    return gate;
  };
  const provider = (timeout?: number) => new CcxtLiquidationsProvider("gate", exchange(timeout), clock);
  const liqRequests = () => server.requests.filter((p) => p.startsWith("/api/v4/futures/usdt/liq_orders"));
  const failure = async (p: CcxtLiquidationsProvider) => {
    const err = await p.poll().then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ProviderError);
    return err as ProviderError;
  };

  beforeAll(async () => {
    server = await FakeProviderServer.start();
  });
  afterAll(async () => {
    await server.close();
  });
  const serve = (answer: (path: string) => FakeAnswer) => {
    liquidations = answer;
    clock = new ManualClock(END + 5 * 60_000);
    server.route((path) => {
      if (path.startsWith("/api/v4/spot/currencies")) return { body: currencies };
      if (path.startsWith("/api/v4/futures/usdt/contracts")) return { body: contracts };
      if (path.startsWith("/api/v4/futures/usdt/liq_orders")) return liquidations(path);
      return { status: 404, body: { label: "NOT_FOUND", message: "not found" } };
    });
  };

  it("computes bias and cascade risk of the last closed hour from Gate's rows", async () => {
    const rows = [
      // The day's first hour (10:00–11:00 the day before): 100 × 0.0001 BTC × 70,000 = 700 USD long.
      row(END - 24 * H + 30 * 60_000, 100, "70000"),
      // Before the 24 h baseline: never asked for.
      row(END - 25 * H + 60_000, 5000, "70000"),
      // 02:00–03:00: 300 × 0.0001 × 69,000 = 2,070 USD long.
      row(END - 8 * H + 10_000, 300, "69000"),
      // 08:00–09:00: a short of 1,000 × 0.0001 × 68,500 = 6,850 USD.
      row(END - 2 * H + 120_000, -1000, "68500"),
      // The last hour, 09:00–10:00. On its first second (Gate returns it for 08:00–09:00 too):
      // long 50 × 0.0001 × 68,000 = 340 USD.
      row(END - H, 50, "68000"),
      // long 600 × 0.0001 × 68,000 = 4,080 USD
      row(END - H + 600_000, 600, "68000", "67950"),
      // long 250 that no taker filled (fill_price 0): valued at its order price, 250 × 0.0001 × 67,900 = 1,697.5 USD
      row(END - H + 900_000, 250, "0", "67900", -250),
      // short 165 × 0.0001 × 68,100 = 1,123.65 USD
      row(END - 60_000, -165, "68100", "68225"),
      // 10:00:00 opens the next, unclosed hour: not counted.
      row(END, -9999, "68000"),
    ];
    serve((path) => liqOrders(rows, path));
    const p = provider();
    const readings = await p.poll();
    // Last hour: long 340 + 4,080 + 1,697.5 = 6,117.5; short 1,123.65; total 7,241.15.
    // Day: 7,241.15 + 6,850 + 2,070 + 700 = 16,861.15, so an average hour is 16,861.15 / 24.
    expect(readings).toHaveLength(2);
    expect(readings[0]).toMatchObject({ key: "LIQ_DIRECTIONAL_BIAS", observedAt: END, source: "gate" });
    expect(readings[0]?.value).toBeCloseTo((6117.5 - 1123.65) / 7241.15, 12);
    expect(readings[0]?.value).toBeCloseTo(0.689649, 6);
    expect(readings[1]).toMatchObject({ key: "LIQ_CASCADE_RISK", observedAt: END, source: "gate" });
    expect(readings[1]?.value).toBeCloseTo(7241.15 / (16861.15 / 24), 12);
    expect(readings[1]?.value).toBeCloseTo(10.306984, 6);

    // One request per closed hour, in seconds, never more than Gate's 3,600 s apart.
    const asked = liqRequests().map((path) => new URL(path, "http://x").searchParams);
    expect(asked).toHaveLength(24);
    expect(asked[0]?.get("contract")).toBe("BTC_USDT");
    expect(asked[0]?.get("limit")).toBe("1000");
    expect([asked[0]?.get("from"), asked[0]?.get("to")]).toEqual([String(sec(END - H)), String(sec(END))]);
    expect([asked[23]?.get("from"), asked[23]?.get("to")]).toEqual([String(sec(END - 24 * H)), String(sec(END - 23 * H))]);

    // Closed hours are not fetched again; the next hour costs one request.
    server.requests.length = 0;
    clock.advance(5 * 60_000);
    expect(await p.poll()).toEqual(readings);
    expect(liqRequests()).toHaveLength(0);
    clock.advance(H);
    const next = await p.poll();
    expect(liqRequests()).toHaveLength(1);
    // 10:00–11:00 holds the short of 9,999 × 0.0001 × 68,000 = 67,993.2 USD; the day drops 700.
    expect(next[0]).toMatchObject({ key: "LIQ_DIRECTIONAL_BIAS", value: -1, observedAt: END + H });
    expect(next[1]?.value).toBeCloseTo(67993.2 / ((16861.15 - 700 + 67993.2) / 24), 12);
  }, 20_000);

  it("reads an hour without liquidations as an observation: bias 0, no cascade risk", async () => {
    serve((path) => liqOrders([row(END - 3 * H, 400, "69000")], path));
    const readings = await provider().poll();
    expect(readings).toEqual([
      { key: "LIQ_DIRECTIONAL_BIAS", value: 0, observedAt: END, source: "gate" },
      { key: "LIQ_CASCADE_RISK", value: 0, observedAt: END, source: "gate" },
    ]);
    serve((path) => liqOrders([], path));
    expect((await provider().poll()).map((r) => r.value)).toEqual([0, 0]);
    // 30 s after the hour its last rows may still be arriving: the hour before is the last closed one.
    clock.set(END + 30_000);
    expect((await provider().poll()).map((r) => r.observedAt)).toEqual([END - H, END - H]);
  }, 20_000);

  it("splits an hour that fills Gate's page of 1,000 rows, counting every row once", async () => {
    // 1,200 liquidations in the last hour, one every 3 s: 900 longs then 300 shorts of 1 contract
    // at 70,000 (7 USD each). Gate would return only 1,000 of them for the whole hour.
    const rows = Array.from({ length: 1200 }, (_, i) => row(END - H + i * 3000, i < 900 ? 1 : -1, "70000"));
    serve((path) => liqOrders(rows, path));
    const readings = await provider().poll();
    // bias (6,300 − 2,100) / 8,400 = 0.5; the day has only this hour: 24 × 8,400 / 8,400 = 24.
    expect(readings[0]?.value).toBeCloseTo(0.5, 12);
    expect(readings[1]?.value).toBeCloseTo(24, 12);
    expect(liqRequests().length).toBe(24 + 2);
  }, 20_000);

  it("rejects a malformed payload and passes nothing on", async () => {
    const good = row(END - H + 60_000, 10, "68000");
    const cases: unknown[] = [
      [{ ...good, size: "10" }],
      [{ ...good, fill_price: 68000 }],
      [{ ...good, size: 0, order_size: 0 }],
      // A liquidation order on the position's own side contradicts Gate's size semantics.
      [{ ...good, order_size: 10 }],
      [{ ...good, order_price: "-1" }],
    ];
    for (const body of cases) {
      serve(() => ({ body }));
      const cache = new ReadingCache();
      const resilient = new ResilientProvider(provider(), clock, { retry: { attempts: 3, baseDelayMs: 1, maxDelayMs: 1 }, breaker: { failureThreshold: 5, cooldownMs: 60_000 } });
      const r = await resilient.poll();
      if (r.ok) cache.record(r.readings);
      expect(!r.ok && r.error.kind, JSON.stringify(body)).toBe("malformed");
      // Not retried: the same payload would come back.
      expect(liqRequests()).toHaveLength(1);
      expect(cache.latest(clock.now()).size).toBe(0);
    }
  }, 20_000);

  it("maps a timeout, Gate's 429 and a 5xx to their ProviderError kinds", async () => {
    serve(() => ({ delayMs: 1500, body: [] }));
    const slow = await failure(provider(200));
    expect(slow.kind).toBe("timeout");
    expect(slow.retryable).toBe(true);

    serve(() => ({ status: 429, body: { label: "TOO_MANY_REQUESTS", message: "Request Rate limit Exceeded" } }));
    const limited = await failure(provider());
    expect(limited.kind).toBe("rate_limited");
    expect(limited.retryable).toBe(true);

    serve(() => ({ status: 503, raw: "<html>503 Service Temporarily Unavailable</html>" }));
    const down = await failure(provider());
    expect(down.kind).toBe("network");
    expect(down.retryable).toBe(true);

    serve(() => ({ status: 500, body: { label: "SERVER_ERROR", message: "Internal server error" } }));
    expect((await failure(provider())).retryable).toBe(true);
  }, 20_000);

  it("lets the signals age into STALE behind ResilientProvider while Gate keeps failing", async () => {
    serve((path) => liqOrders([row(END - H + 60_000, 10, "68000")], path));
    const delays: number[] = [];
    const resilient = new ResilientProvider(provider(), clock, {
      retry: { attempts: 3, baseDelayMs: 100, maxDelayMs: 1000, random: () => 0.5, sleep: async (ms) => void delays.push(ms) },
      breaker: { failureThreshold: 5, cooldownMs: 60_000 },
    });
    const cache = new ReadingCache();
    const first = await resilient.poll();
    expect(first.ok).toBe(true);
    if (first.ok) cache.record(first.readings);

    // Three hours on (LIVE lasts 2 × 1 h), Gate answers 502 to every retry.
    clock.set(END + 3 * H + 5 * 60_000);
    server.route(() => ({ status: 502, raw: "Bad Gateway" }));
    const failed = await resilient.poll();
    expect(!failed.ok && failed.error.kind).toBe("network");
    expect(delays).toHaveLength(2);
    if (failed.ok) cache.record(failed.readings);
    const snap = buildSignalsSnapshot({
      mode: "live",
      at: clock.now(),
      readings: cache.latest(clock.now()),
      calendar: { tier: "NONE", event_name: null, hours_until: 0, is_active: false, status: "CLEAR", complete_until: null },
    });
    expect(snap.signals.find((s) => s.key === "LIQ_DIRECTIONAL_BIAS")).toMatchObject({ status: "STALE", value: 1 });
    expect(snap.signals.find((s) => s.key === "LIQ_CASCADE_RISK")).toMatchObject({ status: "STALE", value: 24 });
    expect(snap.signals.find((s) => s.key === "LIQ_PROXIMITY_ALERT")).toMatchObject({ status: "DEAD", value: null });
  }, 20_000);
});
