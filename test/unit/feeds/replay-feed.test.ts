import { beforeAll, describe, expect, it } from "vitest";
import { aggregateCandles } from "../../../src/domain/signals/aggregate-candles.js";
import { calendarStatus } from "../../../src/domain/signals/macro-calendar.js";
import { ASSETS } from "../../../src/domain/signals/signal-keys.js";
import { buildSignalsSnapshot } from "../../../src/domain/signals/snapshot.js";
import { loadReplayDataset, type ReplayDataset } from "../../../src/feeds/replay/load-dataset.js";
import { ReplayMarketFeed } from "../../../src/feeds/replay/replay-feed.js";
import { defaultReplayStart } from "../../../src/feeds/replay/replay-start.js";

const H = 3_600_000;
const iso = (s: string) => Date.parse(s);

describe("ReplayMarketFeed over the bundled real data", () => {
  let ds: ReplayDataset;
  let feed: ReplayMarketFeed;

  beforeAll(async () => {
    ds = await loadReplayDataset("market-data");
    feed = ReplayMarketFeed.fromDataset(ds);
  }, 60_000);

  const snapshotAt = (at: number) =>
    buildSignalsSnapshot({
      mode: "replay",
      at,
      readings: feed.latestReadings(at),
      calendar: calendarStatus(feed.calendarEvents(), at),
    });

  it("defaults REPLAY_START to 30 days before the shortest hourly series ends (TAO, KuCoin splice)", () => {
    const span = feed.span();
    expect(span.lastBarClose.BTC).toBe(iso("2026-05-16T19:00:00Z"));
    expect(span.lastBarClose.TAO).toBe(iso("2026-04-22T07:00:00Z"));
    expect(defaultReplayStart(span)).toBe(iso("2026-03-23T07:00:00Z"));
  });

  it("has all 17 replay signals LIVE where every file has data (2025-08-06)", () => {
    const s = snapshotAt(iso("2025-08-06T12:00:00Z"));
    const live = s.signals.filter((i) => i.status === "LIVE").map((i) => i.key);
    expect(live).toHaveLength(17);
    expect(s.dead_count).toBe(10);
    expect(s.coverage_pct).toBe(63);
    for (const k of ["SOPR", "EXCHANGE_NETFLOW", "PUT_CALL_RATIO", "OPTIONS_OI", "WHALE_FLOW", "BTC_OPEN_INTEREST", "BTC_DOMINANCE"]) {
      expect(s.signals.find((i) => i.key === k)).toMatchObject({ status: "DEAD", value: null });
    }
  });

  it("at the default start every signal still inside its file's range is LIVE", () => {
    const s = snapshotAt(defaultReplayStart(feed.span()));
    const byStatus = (st: string) => s.signals.filter((i) => i.status === st).map((i) => i.key);
    // DVOL's file ends 2025-11-12 and the hash-rate file 2026-02-12: past their ends they are DEAD.
    expect(byStatus("LIVE")).toHaveLength(15);
    expect(byStatus("STALE")).toEqual([]);
    expect(s.signals.find((i) => i.key === "DVOL")).toMatchObject({ status: "DEAD", last_updated: "2025-11-13T00:00:00.000Z" });
  });

  it("is deterministic and never looks ahead", () => {
    const at = iso("2025-03-10T10:30:00Z");
    expect(snapshotAt(at)).toEqual(snapshotAt(at));
    for (const [, r] of feed.latestReadings(at)) expect(r.observedAt).toBeLessThanOrEqual(at);
    const bars = feed.candles("BTC", "1h", at, 5);
    expect(bars).toHaveLength(5);
    expect((bars[4]?.t ?? 0) + H).toBeLessThanOrEqual(at);
    expect(bars[4]?.t).toBe(iso("2025-03-10T09:00:00Z"));
    const bars4h = feed.candles("BTC", "4h", at, 1);
    expect(bars4h[0]?.t).toBe(iso("2025-03-10T04:00:00Z"));
    expect(feed.technicals("BTC", "1h", at)?.observedAt).toBe(iso("2025-03-10T10:00:00Z"));
  });

  it("builds 4 h bars from the four 1 h bars of each UTC-aligned bucket", () => {
    const h1 = feed.candles("ETH", "1h", iso("2025-03-10T08:00:00Z"), 4);
    const [h4] = feed.candles("ETH", "4h", iso("2025-03-10T08:00:00Z"), 1);
    expect(h4).toEqual({
      t: h1[0]?.t,
      o: h1[0]?.o,
      h: Math.max(...h1.map((b) => b.h)),
      l: Math.min(...h1.map((b) => b.l)),
      c: h1[3]?.c,
      v: h1.reduce((a, b) => a + b.v, 0),
    });
    expect(aggregateCandles(ds.candles.BTC["1h"], 4 * H).length).toBe(ds.candles.BTC["4h"].length);
  });

  it("keeps real gaps: no TAO 1 h bars in September 2024, but 4 h bars from the Binance 4 h file", () => {
    expect(feed.candles("TAO", "1h", iso("2024-09-20T00:00:00Z"), 1)[0]?.t).toBe(iso("2024-09-07T01:00:00Z"));
    expect(feed.candles("TAO", "4h", iso("2024-09-20T00:00:00Z"), 1)[0]?.t).toBe(iso("2024-09-19T20:00:00Z"));
    // After Binance's last TAO bar the KuCoin hours continue the series.
    expect(feed.candles("TAO", "1h", iso("2026-03-01T00:00:00Z"), 1)[0]?.t).toBe(iso("2026-02-28T23:00:00Z"));
  });

  it("gives per-asset features, DEAD where no real source exists", () => {
    const at = iso("2025-03-10T10:30:00Z");
    const sol = feed.assetFeatures("SOL", at);
    expect(sol.rsi1h.status).toBe("LIVE");
    expect(sol.fundingRatePct.status).toBe("LIVE");
    expect(sol.defiTvlTrendPct.status).toBe("LIVE");
    expect(sol.ratioToBtc.value).toBeCloseTo((sol.price.value ?? 0) / (feed.assetFeatures("BTC", at).price.value ?? 1), 12);
    const tao = feed.assetFeatures("TAO", at);
    expect(tao.fundingRatePct).toEqual({ value: null, observedAt: null, status: "DEAD" });
    expect(tao.defiTvlTrendPct.status).toBe("DEAD");
    for (const a of ASSETS) expect(feed.assetFeatures(a, at).rsi4h.status).toBe("LIVE");
  });

  it("ages into STALE and then DEAD after the end of the data, inventing nothing", () => {
    const end = feed.span().lastBarClose.BTC ?? 0;
    const rsi = (at: number) => snapshotAt(at).signals.find((i) => i.key === "BTC_RSI");
    expect(rsi(end + 2 * H)?.status).toBe("LIVE");
    expect(rsi(end + 2 * H + 1)?.status).toBe("STALE");
    expect(rsi(end + 26 * H + 1)).toMatchObject({ status: "DEAD", last_updated: new Date(end).toISOString() });
    expect(feed.candles("BTC", "1h", end + 1000 * H, 1)[0]?.t).toBe(end - H);
  });

  it("serves macro series with the previous close and a 30-day BTC correlation", () => {
    const p = feed.macroSeries("NASDAQ", iso("2025-03-10T10:30:00Z"));
    expect(p?.observedAt).toBe(iso("2025-03-08T00:00:00Z")); // Friday 2025-03-07's close
    expect(p?.previousValue).not.toBeNull();
    expect(p?.correlation30d).toBeGreaterThan(-1);
    const corr = feed.latestReadings(iso("2025-03-10T10:30:00Z")).get("BTC_NASDAQ_CORR");
    expect(corr?.value).toBeCloseTo(p?.correlation30d ?? Number.NaN, 12);
  });

  it("returns signal history between two times, oldest first", () => {
    const from = iso("2025-03-01T00:00:00Z");
    const rows = feed.readingsBetween("BTC_RSI", from, from + 24 * H);
    expect(rows).toHaveLength(25);
    expect(rows[0]?.observedAt).toBe(from);
  });
});
