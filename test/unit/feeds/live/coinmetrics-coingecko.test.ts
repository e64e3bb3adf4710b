import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ManualClock } from "../../../../src/runtime/clocks/clock.js";
import { CoinGeckoDominanceProvider } from "../../../../src/feeds/live/coingecko.js";
import { CoinMetricsProvider } from "../../../../src/feeds/live/coinmetrics.js";
import { ProviderError } from "../../../../src/feeds/live/provider-error.js";
import { loadReplayDataset, type ReplayDataset } from "../../../../src/feeds/replay/load-dataset.js";
import { ReplayMarketFeed } from "../../../../src/feeds/replay/replay-feed.js";
import { FakeProviderServer } from "./fake-provider-server.js";

const DAY = 86_400_000;
const LAST_DAY = Date.parse("2026-02-12T00:00:00Z"); // last day of the bundled hash-rate file
const iso = (ms: number) => `${new Date(ms).toISOString().slice(0, 10)}T00:00:00.000000000Z`;

describe("CoinMetricsProvider on a local HTTP server", () => {
  let server: FakeProviderServer;
  let ds: ReplayDataset;

  beforeAll(async () => {
    server = await FakeProviderServer.start();
    ds = await loadReplayDataset("market-data");
  }, 60_000);
  afterAll(async () => {
    await server.close();
  });

  /** The bundled real series, served in Coin Metrics' documented page shape (values as strings). */
  function rows() {
    const byDay = new Map<number, Record<string, string>>();
    const put = (day: number, k: string, v: number) => {
      if (day > LAST_DAY) return;
      const row = byDay.get(day) ?? { asset: "btc", time: iso(day) };
      row[k] = String(v);
      byDay.set(day, row);
    };
    const oc = ds.tables.btc_onchain;
    oc.time.forEach((t, i) => {
      put(t, "CapMVRVCur", oc.columns.mvrv_cur?.[i] ?? Number.NaN);
      put(t, "CapMrktCurUSD", oc.columns.market_cap_usd?.[i] ?? Number.NaN);
    });
    const hr = ds.tables.hashrate;
    hr.time.forEach((t, i) => put(t, "HashRate", hr.columns.hashrate_th_s?.[i] ?? Number.NaN));
    return [...byDay.entries()].sort((a, b) => a[0] - b[0]).map(([, r]) => r);
  }

  it("pages through the history and matches the replay's MVRV Z, NUPL and hash ribbon on the same day", async () => {
    // Coin Metrics' history starts in 2010, the bundled file's in 2013: a 2012 day with a wild
    // market cap, served anyway, must not move the z-score's "all history".
    const all = [{ asset: "btc", time: "2012-12-31T00:00:00.000000000Z", CapMVRVCur: "1.5", CapMrktCurUSD: "9000000000000", HashRate: "20" }, ...rows()];
    const half = Math.floor(all.length / 2);
    server.route((path) =>
      path.includes("page=2")
        ? { body: { data: all.slice(half) } }
        : { body: { data: all.slice(0, half), next_page_url: `${server.url}/v4/timeseries/asset-metrics?page=2` } },
    );
    const now = LAST_DAY + DAY + 3_600_000;
    const readings = await new CoinMetricsProvider(new ManualClock(now), server.url).poll();
    const replay = ReplayMarketFeed.fromDataset(ds).latestReadings(now);
    expect(readings.map((r) => r.key).sort()).toEqual(["HASH_RIBBON", "MVRV_ZSCORE", "NUPL"]);
    for (const r of readings) {
      expect(r.observedAt).toBe(LAST_DAY + DAY);
      expect(r.value).toBeCloseTo(replay.get(r.key)?.value ?? Number.NaN, 9);
    }
    expect(server.requests).toHaveLength(2);
    expect(server.requests[0]).toContain("metrics=CapMVRVCur,CapMrktCurUSD,HashRate");
  }, 30_000);

  it("refuses a next_page_url on another host", async () => {
    server.route(() => ({ body: { data: [], next_page_url: "http://169.254.169.254/latest/meta-data" } }));
    const err = await new CoinMetricsProvider(new ManualClock(LAST_DAY), server.url).poll().catch((e: unknown) => e);
    expect((err as ProviderError).kind).toBe("malformed");
  });

  it("rejects non-numeric metric strings", async () => {
    server.route(() => ({ body: { data: [{ asset: "btc", time: iso(LAST_DAY), CapMVRVCur: "n/a" }] } }));
    const err = await new CoinMetricsProvider(new ManualClock(LAST_DAY), server.url).poll().catch((e: unknown) => e);
    expect((err as ProviderError).kind).toBe("malformed");
  });
});

describe("CoinGeckoDominanceProvider on a local HTTP server", () => {
  let server: FakeProviderServer;
  beforeAll(async () => {
    server = await FakeProviderServer.start();
  });
  afterAll(async () => {
    await server.close();
  });

  it("reads BTC dominance from /api/v3/global", async () => {
    server.script({
      body: {
        data: {
          active_cryptocurrencies: 17000,
          total_market_cap: { usd: 2.4e12 },
          market_cap_percentage: { btc: 57.3, eth: 9.1 },
          updated_at: 1774250000,
        },
      },
    });
    expect(await new CoinGeckoDominanceProvider(server.url).poll()).toEqual([
      { key: "BTC_DOMINANCE", value: 57.3, observedAt: 1774250000000, source: "coingecko" },
    ]);
  });

  it("treats a 429 with Retry-After as rate_limited", async () => {
    server.script({ status: 429, body: { status: { error_code: 429, error_message: "rate limit" } }, headers: { "retry-after": "60" } });
    const err = await new CoinGeckoDominanceProvider(server.url).poll().catch((e: unknown) => e);
    expect(err).toMatchObject({ kind: "rate_limited", retryAfterMs: 60_000 });
  });
});
