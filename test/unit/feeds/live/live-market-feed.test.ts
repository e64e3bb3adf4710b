import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { computeTechnicalSeries } from "../../../../src/domain/indicators/technical-series.js";
import { CandleSeries } from "../../../../src/domain/signals/candle-series.js";
import { MACRO_SERIES_KEYS, type MacroSeriesKey } from "../../../../src/domain/signals/macro-series.js";
import type { Candle } from "../../../../src/domain/signals/reading.js";
import type { Asset } from "../../../../src/domain/signals/signal-keys.js";
import { buildSignalsSnapshot } from "../../../../src/domain/signals/snapshot.js";
import { ManualClock } from "../../../../src/runtime/clocks/clock.js";
import type { CandleSource } from "../../../../src/feeds/live/candle-source.js";
import { FredProvider } from "../../../../src/feeds/live/fred.js";
import { LiveMarketFeed } from "../../../../src/feeds/live/live-market-feed.js";
import { ProviderError } from "../../../../src/feeds/live/provider-error.js";
import { ExchangeStandIn } from "../../../support/exchange-stand-in.js";
import { ResilientProvider } from "../../../../src/feeds/live/resilient-provider.js";
import { YahooChartProvider } from "../../../../src/feeds/live/yahoo-chart.js";
import { BtcDailyClosesProvider } from "../../../../src/feeds/live/btc-daily-closes.js";
import { CcxtCandleSource } from "../../../../src/feeds/live/ccxt-candle-source.js";
import { binanceDailyKline, binanceSpotExchangeInfo, localBinanceSpot } from "../../../support/binance-spot-answers.js";
import { loadReplayDataset } from "../../../../src/feeds/replay/load-dataset.js";
import { macroCorrelationAt } from "../../../../src/application/macro-now.js";
import { roundTo } from "../../../../src/domain/numbers/round-to.js";
import { FakeProviderServer, type FakeAnswer } from "./fake-provider-server.js";

const H = 3_600_000;

/** A candle source serving real BTC history up to the clock, in pages, like an exchange. */
class HistorySource implements CandleSource {
  readonly id = "binance";
  failNext = false;
  constructor(
    private readonly bars: readonly Candle[],
    private readonly clock: ManualClock,
  ) {}
  async fetchHourly(_asset: Asset, since: number | null, limit: number): Promise<readonly Candle[]> {
    if (this.failNext) {
      this.failNext = false;
      throw new ProviderError(this.id, "rate_limited", "HTTP 429", 429);
    }
    // Like an exchange: the still-forming bar is included; the store must drop it.
    return this.bars.filter((b) => (since === null || b.t >= since) && b.t <= this.clock.now()).slice(0, limit);
  }
}

describe("LiveMarketFeed streaming candles and indicators", () => {
  let btc: CandleSeries;
  beforeAll(async () => {
    btc = (await loadReplayDataset("market-data")).candles.BTC["1h"];
  }, 60_000);

  it("updates indicators bar by bar to the same values as a batch pass over the same bars", async () => {
    const from = btc.lastClosedIndex(Date.parse("2025-01-01T00:00:00Z"));
    const bars = Array.from({ length: 1500 }, (_, k) => btc.at(from + k));
    const first = bars[0] as Candle;
    const clock = new ManualClock(first.t + 1000 * H + 30 * 60_000);
    const source = new HistorySource(bars, clock);
    const feed = new LiveMarketFeed(clock, source, []);
    expect((await feed.pollCandles("BTC")).ok).toBe(true);
    for (let k = 0; k < 500; k++) {
      clock.advance(H);
      if (k === 100) source.failNext = true; // a 429 mid-way: the next poll catches up
      await feed.pollCandles("BTC");
    }
    const at = clock.now();
    const live = feed.technicals("BTC", "1h", at);
    const closedBars = bars.filter((b) => b.t + H <= at);
    const batch = computeTechnicalSeries(CandleSeries.fromCandles(H, closedBars));
    const last = closedBars.length - 1;
    expect(live?.observedAt).toBe((closedBars[last] as Candle).t + H);
    expect(live?.values.rsi14).toBeCloseTo(batch.fields.rsi14[last] ?? Number.NaN, 9);
    expect(live?.values.ema200).toBeCloseTo(batch.fields.ema200[last] ?? Number.NaN, 6);
    expect(live?.values.macdHistogram).toBeCloseTo(batch.fields.macdHistogram[last] ?? Number.NaN, 6);
    expect(live?.values.realizedVolPct).toBeCloseTo(batch.fields.realizedVolPct[last] ?? Number.NaN, 6);
    // Every closed bar is kept (fewer than the 2,400 a feed holds), not only the first page's 1,000.
    expect(feed.candles("BTC", "1h", at, 3000)).toEqual(closedBars);
    expect(feed.technicals("BTC", "4h", at)).not.toBeNull();
    // As of an earlier close the feed answers that bar's values, as replay does: a trader that
    // applies two bars in one turn, and its 12-hour RSI low, read them (not null, not the newest).
    for (const back of [1, 5, 11, 400]) {
      const k = last - back;
      const earlier = feed.technicals("BTC", "1h", (closedBars[k] as Candle).t + H + 59_000);
      expect(earlier?.observedAt).toBe((closedBars[k] as Candle).t + H);
      expect(earlier?.values.rsi14).toBeCloseTo(batch.fields.rsi14[k] ?? Number.NaN, 9);
      expect(earlier?.values.volumeRatio).toBeCloseTo(batch.fields.volumeRatio[k] ?? Number.NaN, 9);
    }
    expect(feed.technicals("BTC", "1h", (closedBars[0] as Candle).t + H - 1)).toBeNull();
    const fourHourEarlier = feed.technicals("BTC", "4h", at - 24 * H);
    expect(fourHourEarlier).not.toBeNull();
    expect(fourHourEarlier?.observedAt).toBeLessThanOrEqual(at - 24 * H);
    expect(fourHourEarlier?.observedAt).toBeGreaterThan(at - 28 * H - 1);

    const snap = buildSignalsSnapshot({
      mode: "live",
      at,
      readings: feed.latestReadings(at),
      calendar: { tier: "NONE", event_name: null, hours_until: 0, is_active: false, status: "CLEAR", complete_until: null },
    });
    const live5 = snap.signals.filter((s) => s.category === "technical" && s.status === "LIVE");
    expect(live5).toHaveLength(5);
    expect(snap.signals.find((s) => s.key === "BTC_RSI")?.value).toBeCloseTo(batch.fields.rsi14[last] ?? Number.NaN, 9);
  }, 30_000);

  it("backfills 100 days at the first poll in pages of the exchange's 1,000, then asks only for new bars, keeping 2,400", async () => {
    const from = btc.lastClosedIndex(Date.parse("2024-01-01T00:00:00Z"));
    const bars = Array.from({ length: 4000 }, (_, k) => btc.at(from + k));
    const clock = new ManualClock((bars[3000] as Candle).t + 30 * 60_000);
    const exchange = new ExchangeStandIn(bars, clock);
    const feed = new LiveMarketFeed(clock, exchange, []);
    expect((await feed.pollCandles("BTC")).ok).toBe(true);
    // 2,400 closed bars and the one forming: pages of 1,000, 1,000 and 401.
    expect(exchange.requests).toBe(3);
    const held = feed.candles("BTC", "1h", clock.now(), 5000);
    expect(held).toEqual(bars.slice(600, 3000));
    expect(feed.spotPrice("BTC", clock.now())?.value).toBe((bars[3000] as Candle).c);

    clock.advance(10 * H);
    expect((await feed.pollCandles("BTC")).ok).toBe(true);
    expect(exchange.requests).toBe(4);
    expect(feed.candles("BTC", "1h", clock.now(), 5000)).toEqual(bars.slice(610, 3010));
    // The candles endpoint's 1,000 are the newest of them.
    expect(feed.candles("BTC", "1h", clock.now(), 1000)).toEqual(bars.slice(2010, 3010));
  }, 30_000);
});

const DAY = 24 * H;

/**
 * Seven weeks of daily data from Monday 2026-03-02: US series on weekdays with one holiday
 * (Friday 2026-03-27: FRED ".", Yahoo a null close), BTC and the fed funds target every day.
 * DXY moves by −½ of BTC's return over each pair of trading dates, so its correlation is −1.
 */
const FIRST = Date.parse("2026-03-02T00:00:00Z");
const HOLIDAY = Date.parse("2026-03-27T00:00:00Z");
const dayOf = (k: number) => FIRST + k * DAY;
const CAL = Array.from({ length: 49 }, (_, k) => dayOf(k));
const TRADING = CAL.filter((d) => ![0, 6].includes(new Date(d).getUTCDay()) && d !== HOLIDAY);
/** Friday 2026-04-17, the last trading day; "now" is early on the Saturday after it. */
const LAST = TRADING.at(-1) as number;
const btcClose = new Map(CAL.map((d, k) => [d, 60_000 * Math.exp(0.02 * Math.sin(1.1 * k) + 0.01 * Math.cos(2.3 * k))]));
const btcOn = (d: number) => btcClose.get(d) as number;
const ndx = TRADING.map((d, i) => ({ day: d, value: 18_000 * (1 + 0.02 * Math.sin(0.9 * i + 1)) }));
const vix = TRADING.map((d, i) => ({ day: d, value: 18 + (i % 7) }));
const us10y = TRADING.map((d, i) => ({ day: d, value: 4 + 0.01 * (i % 5) }));
const gold = TRADING.map((d, i) => ({ day: d, value: 2_000 + 5 * (i % 3) }));
const dxy: { day: number; value: number }[] = [];
for (const d of TRADING) {
  const prev = dxy.at(-1);
  dxy.push({ day: d, value: prev ? prev.value * (1 - 0.5 * (btcOn(d) / btcOn(prev.day) - 1)) : 100 });
}
/** The target was raised on the last trading day; a row dated "today" is not a final day yet. */
const fedFunds = [...CAL.slice(0, 47).map((d) => ({ day: d, value: d < LAST ? 4.5 : 4.75 })), { day: dayOf(47), value: 5 }];

const valueAt = (rows: readonly { day: number; value: number }[], day: number) => rows.find((r) => r.day === day)?.value;

/** Pearson by the one-pass sum formula (the code under test uses two passes over centred values). */
function pearsonByHand(x: readonly number[], y: readonly number[]): number {
  const n = x.length;
  let sx = 0;
  let sy = 0;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    const a = x[i] as number;
    const b = y[i] as number;
    sx += a;
    sy += b;
    sxy += a * b;
    sxx += a * a;
    syy += b * b;
  }
  return (n * sxy - sx * sy) / Math.sqrt((n * sxx - sx * sx) * (n * syy - sy * sy));
}

/** The last 30 paired daily returns (series vs BTC over the same two dates) observable at `at`. */
function correlationByHand(rows: readonly { day: number; value: number }[], at: number): number {
  const seen = rows.filter((r) => r.day + DAY <= at);
  const x: number[] = [];
  const y: number[] = [];
  for (let i = 1; i < seen.length; i++) {
    const [p, c] = [seen[i - 1], seen[i]] as [{ day: number; value: number }, { day: number; value: number }];
    x.push(c.value / p.value - 1);
    y.push(btcOn(c.day) / btcOn(p.day) - 1);
  }
  expect(x.length).toBeGreaterThanOrEqual(30);
  return pearsonByHand(x.slice(-30), y.slice(-30));
}

const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

function fredCsv(id: string, rows: readonly { day: number; value: number }[], holiday: boolean): string {
  const lines = rows.map((r) => `${isoDay(r.day)},${r.value}`);
  if (holiday) lines.push(`${isoDay(HOLIDAY)},.`);
  return [`observation_date,${id}`, ...lines.sort()].join("\n") + "\n";
}

function chart(rows: readonly { day: number; value: number }[]): FakeAnswer {
  const withHoliday = [...rows, { day: HOLIDAY, value: null }].sort((a, b) => a.day - b.day);
  return {
    body: {
      chart: {
        result: [{ timestamp: withHoliday.map((r) => (r.day + 14.5 * H) / 1000), indicators: { quote: [{ close: withHoliday.map((r) => r.value) }] } }],
        error: null,
      },
    },
  };
}

/** FRED, Yahoo and Binance daily klines serving the fixture days up to `until` (inclusive). */
function fixtureAnswer(until: number): (path: string) => FakeAnswer {
  const upTo = (rows: readonly { day: number; value: number }[]) => rows.filter((r) => r.day <= until);
  return (path) => {
    if (path.startsWith("/graph/fredgraph.csv?id=DGS10&")) return { raw: fredCsv("DGS10", upTo(us10y), true) };
    if (path.startsWith("/graph/fredgraph.csv?id=VIXCLS&")) return { raw: fredCsv("VIXCLS", upTo(vix), true) };
    if (path.startsWith("/graph/fredgraph.csv?id=DFEDTARU&")) return { raw: fredCsv("DFEDTARU", upTo(fedFunds), false) };
    if (path.startsWith("/v8/finance/chart/DX-Y.NYB?")) return chart(upTo(dxy));
    if (path.startsWith("/v8/finance/chart/GC%3DF?")) return chart(upTo(gold));
    if (path.startsWith("/v8/finance/chart/%5ENDX?")) return chart(upTo(ndx));
    if (path.startsWith("/api/v3/exchangeInfo")) return { body: binanceSpotExchangeInfo(until) };
    const query = new URLSearchParams(path.split("?")[1] ?? "");
    if (path.startsWith("/api/v3/klines?") && query.get("symbol") === "BTCUSDT" && query.get("interval") === "1d") {
      return { body: CAL.filter((d) => d <= until + DAY).map((d) => binanceDailyKline(d, btcOn(d))) };
    }
    return { status: 404, raw: "" };
  };
}

describe("LiveMarketFeed macro series from the FRED and Yahoo adapters (local provider server)", () => {
  let server: FakeProviderServer;
  beforeAll(async () => {
    server = await FakeProviderServer.start();
  });
  afterAll(async () => {
    await server.close();
  });

  const noCandles: CandleSource = { id: "none", fetchHourly: async () => [] };
  const fast = { retry: { attempts: 2, baseDelayMs: 1, maxDelayMs: 1 }, breaker: { failureThreshold: 5, cooldownMs: 60_000 } };

  function liveFeed(clock: ManualClock) {
    const feed = new LiveMarketFeed(clock, noCandles, []);
    const fred = new ResilientProvider(new FredProvider(clock, feed.macroSeriesSink, server.url), clock, fast);
    const btc = new ResilientProvider(new BtcDailyClosesProvider(clock, new CcxtCandleSource("binance", localBinanceSpot(server.url, clock)), feed.macroSeriesSink), clock, fast);
    const yahoo = new ResilientProvider(new YahooChartProvider(clock, feed.macroSeriesSink, server.url), clock, fast);
    // BTC's closes before Yahoo's poll, which pairs the Nasdaq-100 with them.
    return { feed, pollAll: async () => [(await feed.pollProvider(fred)).ok, (await feed.pollProvider(btc)).ok, (await feed.pollProvider(yahoo)).ok] };
  }

  it("answers with the last close, the previous trading day's close and a 30-day BTC correlation worked out by hand", async () => {
    const now = LAST + DAY + H;
    server.route(fixtureAnswer(dayOf(47)));
    const clock = new ManualClock(now);
    const { feed, pollAll } = liveFeed(clock);
    for (const key of MACRO_SERIES_KEYS) expect(feed.macroSeries(key, now), key).toBeNull();
    expect(await pollAll()).toEqual([true, true, true]);

    const prevTrading = TRADING.at(-2) as number;
    const expectPoint = (key: MacroSeriesKey, rows: readonly { day: number; value: number }[]) => {
      const p = feed.macroSeries(key, now);
      expect(p, key).toMatchObject({ key, value: valueAt(rows, LAST), previousValue: valueAt(rows, prevTrading), observedAt: LAST + DAY });
      expect(p?.correlation30d, key).toBeCloseTo(correlationByHand(rows, now), 12);
    };
    expectPoint("NASDAQ", ndx);
    expectPoint("VIX", vix);
    expectPoint("US10Y", us10y);
    expectPoint("GOLD", gold);
    expectPoint("DXY", dxy);
    expect(feed.macroSeries("DXY", now)?.correlation30d).toBeCloseTo(-1, 12);
    // The NASDAQ series' correlation is the BTC_NASDAQ_CORR signal, computed the same way.
    expect(feed.macroSeries("NASDAQ", now)?.correlation30d).toBeCloseTo(feed.latestReadings(now).get("BTC_NASDAQ_CORR")?.value ?? Number.NaN, 12);
    // Fed funds publishes every calendar day: its previous observation is the day before.
    expect(feed.macroSeries("FED_FUNDS", now)).toMatchObject({ value: 4.75, previousValue: 4.5, observedAt: LAST + DAY });
    expect(feed.macroSeries("FED_FUNDS", now)?.correlation30d).toBeCloseTo(correlationByHand(fedFunds, now), 12);

    // What the route serves and macro.alert watches now has inputs: Δ US10Y and the 25 bp hike.
    const body = macroCorrelationAt(feed, now);
    const dy = ((valueAt(us10y, LAST) ?? 0) - (valueAt(us10y, prevTrading) ?? 0)) * 100;
    expect(body.fed_hawkishness).toBe(Math.round(50 + 30 * Math.tanh(dy / 10) + 20 * Math.tanh(25 / 25)));
    expect(body.signals.map((i) => [i.key, i.status])).toEqual([
      ["US10Y", "LIVE"],
      ["DXY", "LIVE"],
      ["GOLD", "LIVE"],
      ["NASDAQ", "LIVE"],
      ["BTC_NASDAQ_CORR", "LIVE"],
    ]);
    // Published at 4 decimals.
    expect(body.signals.find((i) => i.key === "NASDAQ")?.change_24h_pct).toBe(roundTo(((valueAt(ndx, LAST) ?? 0) / (valueAt(ndx, prevTrading) ?? 1) - 1) * 100, 4));
  });

  it("never shows a day before it is over: the answer as of an earlier time ignores later rows", async () => {
    const now = LAST + DAY + H;
    server.route(fixtureAnswer(dayOf(47)));
    const { feed, pollAll } = liveFeed(new ManualClock(now));
    await pollAll();
    // Friday's rows become observable at Saturday 00:00 UTC; one millisecond earlier they do not exist.
    const before = LAST + DAY - 1;
    const prevTrading = TRADING.at(-2) as number;
    expect(feed.macroSeries("NASDAQ", before)).toMatchObject({ value: ndx.at(-2)?.value, previousValue: ndx.at(-3)?.value, observedAt: prevTrading + DAY });
    expect(feed.macroSeries("NASDAQ", before)?.correlation30d).toBeCloseTo(correlationByHand(ndx, before), 12);
    expect(feed.macroSeries("FED_FUNDS", before)).toMatchObject({ value: 4.5, observedAt: LAST });
    // Saturday's fed funds row (5.00) arrived already but is final only at Sunday 00:00.
    expect(feed.macroSeries("FED_FUNDS", now)?.value).toBe(4.75);
    expect(feed.macroSeries("FED_FUNDS", dayOf(48))?.value).toBe(5);
    // The US holiday left no row: Monday's previous value is Thursday's close.
    const monday = HOLIDAY + 3 * DAY;
    expect(feed.macroSeries("NASDAQ", monday + DAY)).toMatchObject({ value: valueAt(ndx, monday), previousValue: valueAt(ndx, HOLIDAY - DAY) });
    expect(feed.macroSeries("US10Y", monday + DAY)?.previousValue).toBe(valueAt(us10y, HOLIDAY - DAY));
    for (const key of MACRO_SERIES_KEYS) expect(feed.macroSeries(key, FIRST + DAY - 1), key).toBeNull();
  });

  it("keeps the series it has when a poll fails or is malformed, and merges a later, shorter delivery", async () => {
    const now = LAST + DAY + H;
    server.route(fixtureAnswer(dayOf(40)));
    const clock = new ManualClock(now);
    const { feed, pollAll } = liveFeed(clock);
    expect(await pollAll()).toEqual([true, true, true]);
    const known = MACRO_SERIES_KEYS.map((k) => feed.macroSeries(k, now));
    expect(known.every((p) => p !== null)).toBe(true);

    server.route((path) => (path.startsWith("/graph/") ? { raw: "<html>maintenance</html>" } : { status: 503, body: { error: "down" } }));
    expect(await pollAll()).toEqual([false, false, false]);
    expect(MACRO_SERIES_KEYS.map((k) => feed.macroSeries(k, now))).toEqual(known);

    // One bad FRED file among three: none of FRED's series moves, while Yahoo's newer days arrive.
    server.route((path) => (path.includes("DFEDTARU") ? { raw: "observation_date,DFEDTARU\n2026-04-16,4.5x\n" } : fixtureAnswer(dayOf(47))(path)));
    expect(await pollAll()).toEqual([false, true, true]);
    for (const key of ["US10Y", "VIX", "FED_FUNDS"] as const) expect(feed.macroSeries(key, now), key).toEqual(known[MACRO_SERIES_KEYS.indexOf(key)]);
    expect(feed.macroSeries("NASDAQ", now)?.observedAt).toBe(LAST + DAY);

    // FRED comes back with only the last week: older days stay, so the 30-day correlation still holds.
    const lastWeek = LAST - 6 * DAY;
    server.route((path) => {
      const answer = fixtureAnswer(dayOf(47))(path);
      if (!path.startsWith("/graph/") || answer.raw === undefined) return answer;
      const lines = answer.raw.trim().split("\n");
      return { raw: [lines[0], ...lines.slice(1).filter((l) => Date.parse(`${l.slice(0, 10)}T00:00:00Z`) >= lastWeek)].join("\n") + "\n" };
    });
    expect(await pollAll()).toEqual([true, true, true]);
    expect(feed.macroSeries("VIX", now)).toMatchObject({ value: vix.at(-1)?.value, observedAt: LAST + DAY });
    expect(feed.macroSeries("VIX", now)?.correlation30d).toBeCloseTo(correlationByHand(vix, now), 12);
  });

  it("leaves out a day dated after today, which would have pushed every real day out of the series and been served as the latest", async () => {
    const now = LAST + DAY + H;
    const clock = new ManualClock(now);
    const { feed, pollAll } = liveFeed(clock);
    // One glitching FRED file: DGS10 carries a row from 2062 after its real days.
    server.route((path) => {
      const answer = fixtureAnswer(LAST)(path);
      return path.includes("id=DGS10&") && answer.raw !== undefined ? { raw: `${answer.raw.trimEnd()}\n2062-03-23,9.99\n` } : answer;
    });
    expect(await pollAll()).toEqual([true, true, true]);
    expect(feed.macroSeries("US10Y", now)).toMatchObject({ value: us10y.at(-1)?.value, observedAt: LAST + DAY });
    expect(feed.latestReadings(now).get("US10Y")).toMatchObject({ value: us10y.at(-1)?.value, observedAt: LAST + DAY });
    // Whichever provider hands one over (Yahoo, BTC's daily closes), and when another process
    // shared one before this rule (the log keeps it), it is left out too.
    const future = { day: Date.parse("2062-03-23T00:00:00Z"), value: 99 };
    feed.macroSeriesSink.record("GOLD", [future]);
    feed.apply([{ kind: "series", key: "VIX", day: future }]);
    expect(feed.macroSeries("GOLD", now)).toMatchObject({ value: gold.at(-1)?.value, observedAt: LAST + DAY });
    expect(feed.macroSeries("VIX", now)).toMatchObject({ value: vix.at(-1)?.value, observedAt: LAST + DAY });
  });
});
