import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ManualClock } from "../../../../src/runtime/clocks/clock.js";
import { MACRO_SERIES_KEYS, type MacroSeriesKey } from "../../../../src/domain/signals/macro-series.js";
import { FRED_LOOKBACK_DAYS, FredProvider } from "../../../../src/feeds/live/fred.js";
import { LiveMacroSeriesStore, type DailySeriesSink } from "../../../../src/feeds/live/live-macro-series.js";
import { BTC_DAILY_BARS, BtcDailyClosesProvider } from "../../../../src/feeds/live/btc-daily-closes.js";
import { CcxtCandleSource } from "../../../../src/feeds/live/ccxt-candle-source.js";
import { binanceDailyKline, binanceSpotExchangeInfo, localBinanceSpot } from "../../../support/binance-spot-answers.js";
import { LiveMarketFeed } from "../../../../src/feeds/live/live-market-feed.js";
import { ProviderError } from "../../../../src/feeds/live/provider-error.js";
import { ResilientProvider } from "../../../../src/feeds/live/resilient-provider.js";
import { YahooChartProvider } from "../../../../src/feeds/live/yahoo-chart.js";
import type { CandleSource } from "../../../../src/feeds/live/candle-source.js";
import { loadReplayDataset, type ReplayDataset } from "../../../../src/feeds/replay/load-dataset.js";
import { ReplayMarketFeed } from "../../../../src/feeds/replay/replay-feed.js";
import type { ColumnTable } from "../../../../src/feeds/replay/csv-table.js";
import { macroCorrelationAt } from "../../../../src/application/macro-now.js";
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
  last = Math.min(btcLast, ...[t.us10y, t.dxy, t.gold, t.ndx, t.vix, t.fed_funds].map((x) => x.time[x.time.length - 1] as number));
}, 60_000);

const FRED_IDS = ["DGS10", "VIXCLS", "DFEDTARU"] as const;
type FredId = (typeof FRED_IDS)[number];

function fredCsv(id: FredId, rows: readonly { day: number; value: number }[]): string {
  return [`observation_date,${id}`, ...rows.map((r) => `${isoDay(r.day)},${Number.isNaN(r.value) ? "." : String(r.value)}`)].join("\n") + "\n";
}

/** fredgraph.csv of the bundled DGS10, VIXCLS and DFEDTARU up to `last`, from `cosd` on as FRED serves it; null for other paths. */
function bundledFred(path: string): FakeAnswer | null {
  const m = /^\/graph\/fredgraph\.csv\?id=(DGS10|VIXCLS|DFEDTARU)&cosd=(\d{4}-\d{2}-\d{2})$/.exec(path);
  if (!m) return null;
  const id = m[1] as FredId;
  const from = Date.parse(`${m[2]}T00:00:00Z`) - 1;
  const t = ds.tables;
  const table = { DGS10: rowsOf(t.us10y, "yield_pct", from, last), VIXCLS: rowsOf(t.vix, "value", from, last), DFEDTARU: rowsOf(t.fed_funds, "rate_pct", from, last) }[id];
  return { raw: fredCsv(id, table), headers: { "content-type": "text/csv" } };
}

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

/** The bundled real Yahoo series and Binance BTC closes (with the exchange info ccxt loads first) up to `last`, plus a running (unfinished) bar for the next day. */
function bundledYahoo(path: string): FakeAnswer | null {
  const from = last - 92 * DAY;
  const t = ds.tables;
  const running = (rows: { day: number; value: number }[]) => [...rows, { day: last + DAY, value: (rows.at(-1)?.value ?? 1) * 1.5 }];
  if (path.startsWith("/v8/finance/chart/DX-Y.NYB?range=3mo&interval=1d")) return chart(running(rowsOf(t.dxy, "close", from, last)), 5);
  if (path.startsWith("/v8/finance/chart/GC%3DF?")) return chart(running(rowsOf(t.gold, "close_usd_oz", from, last)), 4);
  if (path.startsWith("/v8/finance/chart/%5ENDX?")) return chart(running(rowsOf(t.ndx, "close", from, last)), 14.5);
  if (path.startsWith("/api/v3/exchangeInfo")) return { body: binanceSpotExchangeInfo(last) };
  const query = new URLSearchParams(path.split("?")[1] ?? "");
  if (path.startsWith("/api/v3/klines?") && query.get("symbol") === "BTCUSDT" && query.get("interval") === "1d") {
    const btc1d = ds.candles.BTC["1d"];
    const btc: { day: number; value: number }[] = [];
    for (let i = 0; i < btc1d.length; i++) {
      const day = btc1d.t[i] as number;
      if (day > last - 120 * DAY && day <= last + DAY) btc.push({ day, value: btc1d.c[i] as number });
    }
    return { body: btc.map((d) => binanceDailyKline(d.day, d.value)) };
  }
  return null;
}

const notFound: FakeAnswer = { status: 404, body: { chart: { result: null, error: { code: "Not Found", description: "No data found" } } } };

/** The live store's point equals the replay's for the same key and time, correlation included. */
function expectSameAsReplay(live: LiveMacroSeriesStore | LiveMarketFeed, key: MacroSeriesKey, at: number): void {
  const got = live instanceof LiveMacroSeriesStore ? live.at(key, at) : live.macroSeries(key, at);
  const want = replay.macroSeries(key, at);
  expect(want, key).not.toBeNull();
  expect(got, key).toMatchObject({ key, value: want?.value, observedAt: want?.observedAt, previousValue: want?.previousValue });
  if (want?.correlation30d === null) expect(got?.correlation30d, key).toBeNull();
  else expect(got?.correlation30d, key).toBeCloseTo(want?.correlation30d ?? Number.NaN, 12);
}

describe("FredProvider (US10Y, VIX, fed funds from fredgraph.csv) on a local HTTP server", () => {
  let server: FakeProviderServer;
  beforeAll(async () => {
    server = await FakeProviderServer.start();
  });
  afterAll(async () => {
    await server.close();
  });

  /** Answers DGS10, VIXCLS and DFEDTARU each with its own CSV body. */
  function serveFred(bodies: Readonly<Record<FredId, string>>): void {
    server.route((path) => {
      const id = FRED_IDS.find((i) => path.startsWith(`/graph/fredgraph.csv?id=${i}&`));
      return id ? { raw: bodies[id], headers: { "content-type": "text/csv" } } : { status: 404, raw: "" };
    });
  }

  it("reads the latest DGS10 yield and hands 60 days of US10Y, VIX and fed funds to the series sink, as replay reads them", async () => {
    const now = last + DAY + HOUR;
    server.route((path) => bundledFred(path) ?? { status: 404, raw: "" });
    const store = new LiveMacroSeriesStore();
    const readings = await new FredProvider(new ManualClock(now), store, server.url).poll();
    const expected = replay.latestReadings(now).get("US10Y");
    expect(readings).toEqual([{ key: "US10Y", value: expected?.value, observedAt: expected?.observedAt, source: "fred" }]);
    const cosd = isoDay(now - FRED_LOOKBACK_DAYS * DAY);
    expect(FRED_LOOKBACK_DAYS).toBeGreaterThanOrEqual(45);
    expect([...server.requests].sort()).toEqual(FRED_IDS.map((id) => `/graph/fredgraph.csv?id=${id}&cosd=${cosd}`).sort());
    for (const key of ["US10Y", "VIX", "FED_FUNDS"] as const) {
      expect(store.at(key, now), key).toMatchObject({
        value: replay.macroSeries(key, now)?.value,
        previousValue: replay.macroSeries(key, now)?.previousValue,
        observedAt: replay.macroSeries(key, now)?.observedAt,
        // No BTC closes delivered yet: no correlation is made up.
        correlation30d: null,
      });
    }
    for (const key of ["DXY", "GOLD", "NASDAQ"] as const) expect(store.at(key, now), key).toBeNull();
  });

  it("skips '.' (no observation that day) and uses the last real value", async () => {
    const d0 = Date.parse("2026-04-02T00:00:00Z");
    serveFred({
      DGS10: "observation_date,DGS10\n2026-04-01,4.29\n2026-04-02,4.31\n2026-04-03,.\n",
      VIXCLS: "observation_date,VIXCLS\n2026-04-02,17.5\n2026-04-03,.\n",
      DFEDTARU: "observation_date,DFEDTARU\n2026-04-02,4.50\n2026-04-03,4.50\n",
    });
    const store = new LiveMacroSeriesStore();
    const readings = await new FredProvider(new ManualClock(d0 + 3 * DAY), store, server.url).poll();
    expect(readings).toEqual([{ key: "US10Y", value: 4.31, observedAt: d0 + DAY, source: "fred" }]);
    expect(store.at("US10Y", d0 + 3 * DAY)).toEqual({ key: "US10Y", value: 4.31, observedAt: d0 + DAY, previousValue: 4.29, correlation30d: null });
    expect(store.at("VIX", d0 + 3 * DAY)).toMatchObject({ value: 17.5, previousValue: null });
    expect(store.at("FED_FUNDS", d0 + 3 * DAY)).toMatchObject({ value: 4.5, previousValue: 4.5, observedAt: d0 + 2 * DAY });
  });

  it("rejects a CSV off the documented shape as malformed, and hands no series over when any of the three is bad", async () => {
    const clock = new ManualClock(Date.parse("2026-04-10T00:00:00Z"));
    const good = { DGS10: "observation_date,DGS10\n2026-04-02,4.3\n", VIXCLS: "observation_date,VIXCLS\n2026-04-02,17\n", DFEDTARU: "observation_date,DFEDTARU\n2026-04-02,4.5\n" };
    const bad: Record<FredId, string>[] = [
      { ...good, DGS10: "<html>maintenance</html>" },
      { ...good, DGS10: "observation_date,DGS10\n2026-04-02,4.3x\n" },
      { ...good, DGS10: "observation_date,DGS2\n2026-04-02,4.1\n" },
      { ...good, VIXCLS: "observation_date,VIXCLS\n2026-04-02,high\n" },
      { ...good, DFEDTARU: "observation_date,DFEDTARU\n04/02/2026,4.5\n" },
    ];
    for (const bodies of bad) {
      serveFred(bodies);
      const store = new LiveMacroSeriesStore();
      expect((await errorOf(new FredProvider(clock, store, server.url).poll())).kind).toBe("malformed");
      for (const key of MACRO_SERIES_KEYS) expect(store.at(key, clock.now()), key).toBeNull();
    }
  });

  it("reports HTTP 429 with Retry-After and 5xx as retryable, 404 as not", async () => {
    const clock = new ManualClock(Date.parse("2026-04-10T00:00:00Z"));
    const store = new LiveMacroSeriesStore();
    server.route(() => ({ status: 429, raw: "", headers: { "retry-after": "7" } }));
    const limited = await errorOf(new FredProvider(clock, store, server.url).poll());
    expect([limited.kind, limited.retryAfterMs, limited.retryable]).toEqual(["rate_limited", 7000, true]);
    // The plain client keeps the ccxt exchanges' rule: a 418 with Retry-After is an ask to wait too.
    server.route(() => ({ status: 418, raw: "", headers: { "retry-after": "7200" } }));
    const teapot = await errorOf(new FredProvider(clock, store, server.url).poll());
    expect([teapot.kind, teapot.status, teapot.retryAfterMs]).toEqual(["rate_limited", 418, 7_200_000]);
    server.route(() => ({ status: 502, raw: "bad gateway" }));
    const bad = await errorOf(new FredProvider(clock, store, server.url).poll());
    expect([bad.kind, bad.status, bad.retryable]).toEqual(["http", 502, true]);
    server.route(() => ({ status: 404, raw: "" }));
    expect((await errorOf(new FredProvider(clock, store, server.url).poll())).retryable).toBe(false);
  });

  it("reads a Retry-After given as an HTTP date, as every JSON provider does", async () => {
    const clock = new ManualClock(Date.parse("2026-04-10T00:00:00Z"));
    const retryAt = new Date(Date.now() + 40_000).toUTCString();
    server.route(() => ({ status: 429, raw: "", headers: { "retry-after": retryAt } }));
    const limited = await errorOf(new FredProvider(clock, new LiveMacroSeriesStore(), server.url).poll());
    expect(limited.kind).toBe("rate_limited");
    // An HTTP date has whole seconds, and some of them pass before the answer is read.
    expect(limited.retryAfterMs).toBeGreaterThan(30_000);
    expect(limited.retryAfterMs).toBeLessThanOrEqual(40_000);
  });
});

describe("YahooChartProvider (DXY, GOLD, BTC_NASDAQ_CORR) and BTC's daily closes (ccxt binance) on a local HTTP server", () => {
  let server: FakeProviderServer;
  beforeAll(async () => {
    server = await FakeProviderServer.start();
  });
  afterAll(async () => {
    await server.close();
  });

  function serveBundled(): void {
    server.route((path) => bundledYahoo(path) ?? notFound);
  }
  const btcCloses = (clock: ManualClock, sink: DailySeriesSink) =>
    new BtcDailyClosesProvider(clock, new CcxtCandleSource("binance", localBinanceSpot(server.url, clock)), sink);

  it("matches the replay's DXY, GOLD and BTC-Nasdaq correlation on the same day, ignoring the running bar", async () => {
    serveBundled();
    const now = last + DAY + HOUR;
    const clock = new ManualClock(now);
    const store = new LiveMacroSeriesStore();
    // BTC's closes come through ccxt, as the service fetches them; they yield no reading of their own.
    expect(await btcCloses(clock, store).poll()).toEqual([]);
    expect(server.requests.filter((r) => r.startsWith("/api/v3/klines"))).toEqual([`/api/v3/klines?interval=1d&limit=${BTC_DAILY_BARS}&symbol=BTCUSDT`]);
    // The day under way (a running price) is not a close.
    expect(Number.isNaN(store.valueOn("BTC", last + DAY))).toBe(true);
    expect(store.valueOn("BTC", last)).toBe(ds.candles.BTC["1d"].c[ds.candles.BTC["1d"].t.indexOf(last)]);
    const before = server.requests.length;
    const readings = await new YahooChartProvider(clock, store, server.url).poll();
    const expected = replay.latestReadings(now);
    expect(readings.map((r) => r.key).sort()).toEqual(["DXY", "GOLD"]);
    for (const r of readings) {
      expect(r.observedAt, r.key).toBe(last + DAY);
      expect(r.observedAt, r.key).toBe(expected.get(r.key)?.observedAt);
      expect(r.value, r.key).toBeCloseTo(expected.get(r.key)?.value ?? Number.NaN, 9);
      expect(r.source).toBe("yahoo");
    }
    // Three charts: Yahoo's poll calls no exchange.
    expect(server.requests.slice(before).every((r) => r.startsWith("/v8/finance/chart/"))).toBe(true);
    expect(server.requests.length - before).toBe(3);
    for (const key of ["DXY", "GOLD", "NASDAQ"] as const) expectSameAsReplay(store, key, now);
    // BTC_NASDAQ_CORR as the live feed derives it from the two series.
    expect(store.newestCorrelation("NASDAQ")?.observedAt).toBe(expected.get("BTC_NASDAQ_CORR")?.observedAt);
    expect(store.newestCorrelation("NASDAQ")?.value).toBeCloseTo(expected.get("BTC_NASDAQ_CORR")?.value ?? Number.NaN, 12);
  }, 30_000);

  it("a Binance ban leaves DXY, GOLD and the Nasdaq-100 whole, and BTC_NASDAQ_CORR at the last day BTC's closes cover", async () => {
    const banned = { code: -1003, msg: "Way too much request weight used; IP banned until later." };
    let ban = false;
    server.route((path) =>
      ban && path.startsWith("/api/v3/klines") ? { status: 418, body: banned, headers: { "retry-after": "7200" } } : (bundledYahoo(path) ?? notFound),
    );
    const clock = new ManualClock(last + HOUR);
    const feed = new LiveMarketFeed(clock, noCandles, []);
    const fast = { retry: { attempts: 2, baseDelayMs: 1, maxDelayMs: 1 }, breaker: { failureThreshold: 5, cooldownMs: 60_000 } };
    const btc = new ResilientProvider(btcCloses(clock, feed.macroSeriesSink), clock, fast);
    const yahoo = new ResilientProvider(new YahooChartProvider(clock, feed.macroSeriesSink, server.url), clock, fast);
    expect([(await feed.pollProvider(btc)).ok, (await feed.pollProvider(yahoo)).ok]).toEqual([true, true]);
    const dayBefore = feed.latestReadings(clock.now()).get("BTC_NASDAQ_CORR");
    const replayed = replay.latestReadings(clock.now()).get("BTC_NASDAQ_CORR");
    expect(dayBefore?.observedAt).toBe(replayed?.observedAt);
    expect(dayBefore?.value).toBeCloseTo(replayed?.value ?? Number.NaN, 12);

    // A day on, Binance bans the IP for two hours: the closes poller holds for it ...
    clock.set(last + DAY + HOUR);
    ban = true;
    const refused = await feed.pollProvider(btc);
    expect(!refused.ok && [refused.error.kind, refused.error.retryAfterMs]).toEqual(["rate_limited", 2 * HOUR]);
    // ... and Yahoo's poll still lands: the new day's DXY and GOLD as replay has them.
    expect((await feed.pollProvider(yahoo)).ok).toBe(true);
    const now = clock.now();
    const latest = feed.latestReadings(now);
    for (const key of ["DXY", "GOLD"] as const) {
      expect(latest.get(key)?.observedAt, key).toBe(last + DAY);
      expect(latest.get(key)?.value, key).toBe(replay.latestReadings(now).get(key)?.value);
    }
    for (const key of ["DXY", "GOLD", "NASDAQ"] as const) expect(feed.macroSeries(key, now)?.observedAt, key).toBe(last + DAY);
    // The newest Nasdaq day has no BTC close to pair with: the correlation is the day before's, not a guess.
    expect(latest.get("BTC_NASDAQ_CORR")).toEqual(dayBefore);
    expect(feed.macroSeries("NASDAQ", now)?.correlation30d).toBeNull();

    // The ban over, the closes arrive, and with them the day's correlation: no Yahoo poll waits on them.
    clock.set(last + DAY + 3 * HOUR + 60_000);
    ban = false;
    const yahooCalls = server.requests.filter((r) => r.startsWith("/v8/")).length;
    expect((await feed.pollProvider(btc)).ok).toBe(true);
    expect(server.requests.filter((r) => r.startsWith("/v8/")).length).toBe(yahooCalls);
    const want = replay.latestReadings(clock.now()).get("BTC_NASDAQ_CORR");
    expect(feed.latestReadings(clock.now()).get("BTC_NASDAQ_CORR")?.observedAt).toBe(want?.observedAt);
    expect(feed.latestReadings(clock.now()).get("BTC_NASDAQ_CORR")?.value).toBeCloseTo(want?.value ?? Number.NaN, 12);
  }, 30_000);

  it("treats null closes (holidays) as no bar, and yields no correlation with too few pairs", async () => {
    const d0 = Date.parse("2026-04-06T00:00:00Z");
    server.route(() =>
      chart(
        [
          { day: d0, value: 100 },
          { day: d0 + DAY, value: 101 },
          { day: d0 + 2 * DAY, value: null },
        ],
        5,
      ),
    );
    const store = new LiveMacroSeriesStore();
    store.record("BTC", [0, 1, 2].map((k) => ({ day: d0 + k * DAY, value: 80_000 + k })));
    const readings = await new YahooChartProvider(new ManualClock(d0 + 3 * DAY), store, server.url).poll();
    expect(readings).toEqual([
      { key: "DXY", value: 101, observedAt: d0 + 2 * DAY, source: "yahoo" },
      { key: "GOLD", value: 101, observedAt: d0 + 2 * DAY, source: "yahoo" },
    ]);
    expect(store.at("NASDAQ", d0 + 3 * DAY)).toEqual({ key: "NASDAQ", value: 101, observedAt: d0 + 2 * DAY, previousValue: 100, correlation30d: null });
  });

  it("rejects payloads off the documented shape as malformed, and the live feed records nothing", async () => {
    const now = Date.parse("2026-04-10T00:00:00Z");
    const cases: FakeAnswer[] = [
      // chart.error on a 200
      { body: { chart: { result: null, error: { code: "Not Found", description: "x" } } } },
      // timestamp and close of different lengths
      { body: { chart: { result: [{ timestamp: [1, 2], indicators: { quote: [{ close: [1] }] } }], error: null } } },
      // a string close
      { body: { chart: { result: [{ timestamp: [1], indicators: { quote: [{ close: ["1"] }] } }], error: null } } },
      // not JSON at all
      { raw: "<html>" },
    ];
    for (const answer of cases) {
      server.route(() => answer);
      const store = new LiveMacroSeriesStore();
      expect((await errorOf(new YahooChartProvider(new ManualClock(now), store, server.url).poll())).kind).toBe("malformed");
      for (const key of MACRO_SERIES_KEYS) expect(store.at(key, now), key).toBeNull();
    }
    const clock = new ManualClock(now);
    const feed = new LiveMarketFeed(clock, noCandles, []);
    const resilient = new ResilientProvider(new YahooChartProvider(clock, feed.macroSeriesSink, server.url), clock, {
      retry: { attempts: 3, baseDelayMs: 1, maxDelayMs: 1 },
      breaker: { failureThreshold: 5, cooldownMs: 60_000 },
    });
    const before = server.requests.length;
    const result = await feed.pollProvider(resilient);
    expect(result.ok).toBe(false);
    // Malformed is not retried: one round of 3 requests.
    expect(server.requests.length - before).toBe(3);
    expect(feed.latestReadings(now).size).toBe(0);
    for (const key of MACRO_SERIES_KEYS) expect(feed.macroSeries(key, now), key).toBeNull();
  });

  it("BTC's closes: klines off Binance's shape are malformed and hand nothing over; a 503 is retryable", async () => {
    const clock = new ManualClock(Date.parse("2026-04-10T00:00:00Z"));
    const exchangeInfo = (path: string) => (path.startsWith("/api/v3/exchangeInfo") ? { body: binanceSpotExchangeInfo(clock.now()) } : null);
    const store = new LiveMacroSeriesStore();
    // A negative close: ccxt passes it through, the OHLCV schema refuses it.
    server.route((p) => exchangeInfo(p) ?? { body: [binanceDailyKline(clock.now() - 2 * DAY, -1)] });
    expect((await errorOf(btcCloses(clock, store).poll())).kind).toBe("malformed");
    expect(Number.isNaN(store.valueOn("BTC", clock.now() - 2 * DAY))).toBe(true);
    server.route((p) => exchangeInfo(p) ?? { status: 503, body: {} });
    const down = await errorOf(btcCloses(clock, store).poll());
    expect([down.kind, down.retryable]).toEqual(["network", true]);
    server.route((p) => exchangeInfo(p) ?? { body: [binanceDailyKline(clock.now() - 2 * DAY, 71_000), binanceDailyKline(clock.now() - DAY, 72_000), binanceDailyKline(clock.now(), 73_000)] });
    expect(await btcCloses(clock, store).poll()).toEqual([]);
    expect([store.valueOn("BTC", clock.now() - 2 * DAY), store.valueOn("BTC", clock.now() - DAY)]).toEqual([71_000, 72_000]);
    expect(Number.isNaN(store.valueOn("BTC", clock.now()))).toBe(true);
  });

  it("reports HTTP 429 with Retry-After and 5xx as retryable; an unknown symbol's 404 is not", async () => {
    const clock = new ManualClock(Date.parse("2026-04-10T00:00:00Z"));
    const store = new LiveMacroSeriesStore();
    server.route(() => ({ status: 429, body: { finance: { error: "Too Many Requests" } }, headers: { "retry-after": "3" } }));
    const limited = await errorOf(new YahooChartProvider(clock, store, server.url).poll());
    expect([limited.kind, limited.retryAfterMs, limited.retryable]).toEqual(["rate_limited", 3000, true]);
    server.route((p) => (p.includes("GC%3DF") ? { status: 503, body: {} } : chart([], 5)));
    const down = await errorOf(new YahooChartProvider(clock, store, server.url).poll());
    expect([down.kind, down.status, down.retryable]).toEqual(["http", 503, true]);
    server.route(() => notFound);
    const missing = await errorOf(new YahooChartProvider(clock, store, server.url).poll());
    expect([missing.kind, missing.status, missing.retryable]).toEqual(["http", 404, false]);
  });
});

describe("the live feed's macro series and GET /v1/macro/correlation's body, from FRED and Yahoo on a local HTTP server", () => {
  let server: FakeProviderServer;
  beforeAll(async () => {
    server = await FakeProviderServer.start();
    server.route((path) => bundledFred(path) ?? bundledYahoo(path) ?? notFound);
  });
  afterAll(async () => {
    await server.close();
  });

  it("serves all six series as replay does, and the body the route builds has five LIVE items with real values", async () => {
    const now = last + DAY + HOUR;
    const clock = new ManualClock(now);
    const feed = new LiveMarketFeed(clock, noCandles, []);
    const fast = { retry: { attempts: 2, baseDelayMs: 1, maxDelayMs: 1 }, breaker: { failureThreshold: 5, cooldownMs: 60_000 } };
    const fred = new ResilientProvider(new FredProvider(clock, feed.macroSeriesSink, server.url), clock, fast);
    const yahoo = new ResilientProvider(new YahooChartProvider(clock, feed.macroSeriesSink, server.url), clock, fast);
    const btc = new ResilientProvider(new BtcDailyClosesProvider(clock, new CcxtCandleSource("binance", localBinanceSpot(server.url, clock)), feed.macroSeriesSink), clock, fast);
    expect((await feed.pollProvider(fred)).ok).toBe(true);
    expect((await feed.pollProvider(btc)).ok).toBe(true);
    expect((await feed.pollProvider(yahoo)).ok).toBe(true);

    for (const key of MACRO_SERIES_KEYS) expectSameAsReplay(feed, key, now);

    const body = macroCorrelationAt(feed, now);
    const want = macroCorrelationAt(replay, now);
    expect(body.signals.map((i) => i.key)).toEqual(["US10Y", "DXY", "GOLD", "NASDAQ", "BTC_NASDAQ_CORR"]);
    for (const item of body.signals) {
      const other = want.signals.find((i) => i.key === item.key);
      expect(item.status, item.key).toBe("LIVE");
      expect(Number.isFinite(item.value), item.key).toBe(true);
      expect(item.value, item.key).toBeCloseTo(other?.value ?? Number.NaN, 9);
      expect(item.last_updated, item.key).toBe(other?.last_updated);
      if (item.key === "BTC_NASDAQ_CORR") {
        expect([item.change_24h_pct, item.correlation_30d]).toEqual([null, null]);
      } else {
        expect(item.change_24h_pct, item.key).toBeCloseTo(other?.change_24h_pct ?? Number.NaN, 9);
        expect(item.correlation_30d, item.key).toBeCloseTo(other?.correlation_30d ?? Number.NaN, 9);
      }
    }
    expect(body.signals.find((i) => i.key === "NASDAQ")?.correlation_30d).toBeCloseTo(body.signals.find((i) => i.key === "BTC_NASDAQ_CORR")?.value ?? Number.NaN, 12);
    expect({ risk: body.risk_off_score, hawk: body.fed_hawkishness, assessment: body.assessment, alerts: body.alerts }).toEqual({
      risk: want.risk_off_score,
      hawk: want.fed_hawkishness,
      assessment: want.assessment,
      alerts: want.alerts,
    });
  }, 30_000);
});
