import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ManualClock } from "../../../../src/domain/time/clock.js";
import { FredProvider } from "../../../../src/feeds/live/fred.js";
import { LiveMarketFeed } from "../../../../src/feeds/live/live-market-feed.js";
import { ProviderError } from "../../../../src/feeds/live/provider-error.js";
import { ResilientProvider } from "../../../../src/feeds/live/resilient-provider.js";
import { YahooChartProvider } from "../../../../src/feeds/live/yahoo-chart.js";
import type { CandleSource } from "../../../../src/feeds/live/candle-source.js";
import { loadReplayDataset, type ReplayDataset } from "../../../../src/feeds/replay/load-dataset.js";
import { ReplayMarketFeed } from "../../../../src/feeds/replay/replay-feed.js";
import type { ColumnTable } from "../../../../src/feeds/replay/csv-table.js";
import { FakeProviderServer, type FakeAnswer } from "./fake-provider-server.js";

const DAY = 86_400_000;
const HOUR = 3_600_000;
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const noCandles: CandleSource = {
  id: "none",
  fetchHourly: async () => [],
};

const errorOf = async (p: Promise<unknown>) => {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ProviderError);
  return err as ProviderError;
};

/** Rows of a bundled table with time in (from, to]. */
function rowsOf(table: ColumnTable, column: string, from: number, to: number): { day: number; value: number }[] {
  const values = table.columns[column] ?? new Float64Array(0);
  const out: { day: number; value: number }[] = [];
  table.time.forEach((t, i) => {
    if (t > from && t <= to) out.push({ day: t, value: values[i] as number });
  });
  return out;
}

let ds: ReplayDataset;
let replay: ReplayMarketFeed;
/** The last day every bundled macro table and BTC's daily candles cover; the fakes serve up to it. */
let last: number;

beforeAll(async () => {
  ds = await loadReplayDataset("market-data");
  replay = ReplayMarketFeed.fromDataset(ds);
  const t = ds.tables;
  // BTC's bundled candles end before the macro tables; its last (maybe partial) day is left out.
  const btc1d = ds.candles.BTC["1d"];
  const btcLast = (btc1d.t[btc1d.length - 1] as number) - DAY;
  last = Math.min(btcLast, ...[t.us10y, t.dxy, t.gold, t.ndx].map((x) => x.time[x.time.length - 1] as number));
}, 60_000);

describe("FredProvider (US10Y from fredgraph.csv) on a local HTTP server", () => {
  let server: FakeProviderServer;
  beforeAll(async () => {
    server = await FakeProviderServer.start();
  });
  afterAll(async () => {
    await server.close();
  });

  function csv(rows: readonly { day: number; value: number }[], header = "observation_date,DGS10"): string {
    return [header, ...rows.map((r) => `${isoDay(r.day)},${Number.isNaN(r.value) ? "." : String(r.value)}`)].join("\n") + "\n";
  }

  it("reads the latest DGS10 yield, equal to the replay's US10Y for the same day", async () => {
    const now = last + DAY + HOUR;
    const rows = rowsOf(ds.tables.us10y, "yield_pct", last - 30 * DAY, last).filter((r) => !Number.isNaN(r.value));
    server.script({ raw: csv(rows), headers: { "content-type": "text/csv" } });
    const readings = await new FredProvider(new ManualClock(now), server.url).poll();
    const expected = replay.latestReadings(now).get("US10Y");
    expect(readings).toEqual([{ key: "US10Y", value: expected?.value, observedAt: expected?.observedAt, source: "fred" }]);
    expect(server.requests[0]).toBe(`/graph/fredgraph.csv?id=DGS10&cosd=${isoDay(now - 30 * DAY)}`);
  });

  it("skips '.' (no observation that day) and uses the last real value", async () => {
    const d0 = Date.parse("2026-04-02T00:00:00Z");
    server.script({ raw: "observation_date,DGS10\n2026-04-02,4.31\n2026-04-03,.\n" });
    const readings = await new FredProvider(new ManualClock(d0 + 3 * DAY), server.url).poll();
    expect(readings).toEqual([{ key: "US10Y", value: 4.31, observedAt: d0 + DAY, source: "fred" }]);
  });

  it("rejects a CSV off the documented shape as malformed", async () => {
    const clock = new ManualClock(Date.parse("2026-04-10T00:00:00Z"));
    server.script({ raw: "<html>maintenance</html>" });
    expect((await errorOf(new FredProvider(clock, server.url).poll())).kind).toBe("malformed");
    server.script({ raw: "observation_date,DGS10\n2026-04-02,4.3x\n" });
    expect((await errorOf(new FredProvider(clock, server.url).poll())).kind).toBe("malformed");
    server.script({ raw: "observation_date,DGS2\n2026-04-02,4.1\n" });
    expect((await errorOf(new FredProvider(clock, server.url).poll())).kind).toBe("malformed");
  });

  it("reports HTTP 429 with Retry-After and 5xx as retryable, 404 as not", async () => {
    const clock = new ManualClock(Date.parse("2026-04-10T00:00:00Z"));
    server.script({ status: 429, raw: "", headers: { "retry-after": "7" } });
    const limited = await errorOf(new FredProvider(clock, server.url).poll());
    expect([limited.kind, limited.retryAfterMs, limited.retryable]).toEqual(["rate_limited", 7000, true]);
    server.script({ status: 502, raw: "bad gateway" });
    const bad = await errorOf(new FredProvider(clock, server.url).poll());
    expect([bad.kind, bad.status, bad.retryable]).toEqual(["http", 502, true]);
    server.script({ status: 404, raw: "" });
    expect((await errorOf(new FredProvider(clock, server.url).poll())).retryable).toBe(false);
  });
});

describe("YahooChartProvider (DXY, GOLD, BTC_NASDAQ_CORR) on a local HTTP server", () => {
  let server: FakeProviderServer;
  beforeAll(async () => {
    server = await FakeProviderServer.start();
  });
  afterAll(async () => {
    await server.close();
  });

  /** The documented chart shape; bars are stamped at the session open (hours after 00:00 UTC). */
  function chart(rows: readonly { day: number; value: number | null }[], openHourUtc: number): FakeAnswer {
    return {
      body: {
        chart: {
          result: [
            {
              meta: { currency: "USD", dataGranularity: "1d", range: "3mo" },
              timestamp: rows.map((r) => (r.day + openHourUtc * HOUR) / 1000),
              indicators: { quote: [{ close: rows.map((r) => r.value), open: rows.map((r) => r.value) }] },
            },
          ],
          error: null,
        },
      },
    };
  }

  function klines(days: readonly { day: number; value: number }[]): FakeAnswer {
    return { body: days.map((d) => [d.day, "1", "1", "1", String(d.value), "10", d.day + DAY - 1, "0", 1, "0", "0", "0"]) };
  }

  /** The bundled real series up to `last`, plus a running (unfinished) bar for the next day. */
  function serveBundled(): void {
    const from = last - 92 * DAY;
    const t = ds.tables;
    const running = (rows: { day: number; value: number }[]) => [...rows, { day: last + DAY, value: (rows.at(-1)?.value ?? 1) * 1.5 }];
    const btc1d = ds.candles.BTC["1d"];
    const btc: { day: number; value: number }[] = [];
    for (let i = 0; i < btc1d.length; i++) {
      const day = btc1d.t[i] as number;
      if (day > last - 120 * DAY && day <= last + DAY) btc.push({ day, value: btc1d.c[i] as number });
    }
    server.route((path) => {
      if (path.startsWith("/v8/finance/chart/DX-Y.NYB?range=3mo&interval=1d")) return chart(running(rowsOf(t.dxy, "close", from, last)), 5);
      if (path.startsWith("/v8/finance/chart/GC%3DF?")) return chart(running(rowsOf(t.gold, "close_usd_oz", from, last)), 4);
      if (path.startsWith("/v8/finance/chart/%5ENDX?")) return chart(running(rowsOf(t.ndx, "close", from, last)), 14.5);
      if (path.startsWith("/api/v3/klines?symbol=BTCUSDT&interval=1d")) return klines(btc);
      return { status: 404, body: { chart: { result: null, error: { code: "Not Found", description: "No data found" } } } };
    });
  }

  it("matches the replay's DXY, GOLD and BTC_NASDAQ_CORR on the same day, ignoring the running bar", async () => {
    serveBundled();
    const now = last + DAY + HOUR;
    const readings = await new YahooChartProvider(new ManualClock(now), server.url, server.url).poll();
    const expected = replay.latestReadings(now);
    expect(readings.map((r) => r.key).sort()).toEqual(["BTC_NASDAQ_CORR", "DXY", "GOLD"]);
    for (const r of readings) {
      expect(r.observedAt, r.key).toBe(last + DAY);
      expect(r.observedAt, r.key).toBe(expected.get(r.key)?.observedAt);
      expect(r.value, r.key).toBeCloseTo(expected.get(r.key)?.value ?? Number.NaN, 9);
      expect(r.source).toBe("yahoo");
    }
    expect(server.requests).toHaveLength(4);
  }, 30_000);

  it("treats null closes (holidays) as no bar, and yields no correlation with too few pairs", async () => {
    const d0 = Date.parse("2026-04-06T00:00:00Z");
    server.route((path) =>
      path.startsWith("/api/v3/klines")
        ? klines([0, 1, 2].map((k) => ({ day: d0 + k * DAY, value: 80_000 + k })))
        : chart(
            [
              { day: d0, value: 100 },
              { day: d0 + DAY, value: 101 },
              { day: d0 + 2 * DAY, value: null },
            ],
            5,
          ),
    );
    const readings = await new YahooChartProvider(new ManualClock(d0 + 3 * DAY), server.url, server.url).poll();
    expect(readings).toEqual([
      { key: "DXY", value: 101, observedAt: d0 + 2 * DAY, source: "yahoo" },
      { key: "GOLD", value: 101, observedAt: d0 + 2 * DAY, source: "yahoo" },
    ]);
  });

  it("rejects payloads off the documented shape as malformed, and the live feed records nothing", async () => {
    const now = Date.parse("2026-04-10T00:00:00Z");
    const good = chart([{ day: now - 2 * DAY, value: 100 }], 5);
    const cases: ((path: string) => FakeAnswer)[] = [
      // chart.error on a 200
      (p) => (p.includes("chart") ? { body: { chart: { result: null, error: { code: "Not Found", description: "x" } } } } : klines([])),
      // timestamp and close of different lengths
      (p) => (p.includes("chart") ? { body: { chart: { result: [{ timestamp: [1, 2], indicators: { quote: [{ close: [1] }] } }], error: null } } } : klines([])),
      // a string close
      (p) => (p.includes("chart") ? { body: { chart: { result: [{ timestamp: [1], indicators: { quote: [{ close: ["1"] }] } }], error: null } } } : klines([])),
      // klines with a numeric price (Binance sends strings)
      (p) => (p.includes("chart") ? good : { body: [[now - 2 * DAY, 1, 1, 1, 1]] }),
      // not JSON at all
      () => ({ raw: "<html>" }),
    ];
    for (const route of cases) {
      server.route(route);
      expect((await errorOf(new YahooChartProvider(new ManualClock(now), server.url, server.url).poll())).kind).toBe("malformed");
    }
    const clock = new ManualClock(now);
    const feed = new LiveMarketFeed(clock, noCandles, []);
    const resilient = new ResilientProvider(new YahooChartProvider(clock, server.url, server.url), clock, {
      retry: { attempts: 3, baseDelayMs: 1, maxDelayMs: 1 },
      breaker: { failureThreshold: 5, cooldownMs: 60_000 },
    });
    const before = server.requests.length;
    const result = await feed.pollProvider(resilient);
    expect(result.ok).toBe(false);
    // Malformed is not retried: one round of 4 requests.
    expect(server.requests.length - before).toBe(4);
    expect(feed.latestReadings(now).size).toBe(0);
  });

  it("reports HTTP 429 with Retry-After and 5xx as retryable; an unknown symbol's 404 is not", async () => {
    const clock = new ManualClock(Date.parse("2026-04-10T00:00:00Z"));
    server.route(() => ({ status: 429, body: { finance: { error: "Too Many Requests" } }, headers: { "retry-after": "3" } }));
    const limited = await errorOf(new YahooChartProvider(clock, server.url, server.url).poll());
    expect([limited.kind, limited.retryAfterMs, limited.retryable]).toEqual(["rate_limited", 3000, true]);
    server.route((p) => (p.includes("klines") ? { status: 503, body: {} } : chart([], 5)));
    const down = await errorOf(new YahooChartProvider(clock, server.url, server.url).poll());
    expect([down.kind, down.status, down.retryable]).toEqual(["http", 503, true]);
    server.route(() => ({ status: 404, body: { chart: { result: null, error: { code: "Not Found", description: "No data found" } } } }));
    const missing = await errorOf(new YahooChartProvider(clock, server.url, server.url).poll());
    expect([missing.kind, missing.status, missing.retryable]).toEqual(["http", 404, false]);
  });
});
