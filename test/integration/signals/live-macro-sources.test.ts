import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createKey, freshStoreUrl, startService, type RunningService } from "../../support/service.js";
import { waitFor } from "../../support/wait-for.js";
import { FakeProviderServer, type FakeAnswer } from "../../unit/feeds/live/fake-provider-server.js";
import { macroCorrelationSchema, signalsSnapshotSchema } from "../../../src/http/schemas/signals.js";
import { quietLiquidations } from "../../support/quiet-liquidations.js";
import { noDerivatives } from "../../support/quiet-exchanges.js";
import { binanceDailyKline, binanceSpotExchangeInfo, localBinanceSpot } from "../../support/binance-spot-answers.js";
import { wallClock } from "../../../src/runtime/clocks/clock.js";

const DAY = 86_400_000;

/** 60 completed days up to yesterday: NDX wiggles, BTC moves in proportion (correlation 1). */
function series(): { day: number; ndx: number }[] {
  const today = Math.floor(Date.now() / DAY) * DAY;
  return Array.from({ length: 60 }, (_, k) => ({ day: today - (60 - k) * DAY, ndx: 20_000 * (1 + 0.02 * Math.sin(k * 1.7)) }));
}

function chart(days: readonly number[], closes: readonly (number | null)[], openHourUtc: number): FakeAnswer {
  return {
    body: {
      chart: {
        result: [{ timestamp: days.map((d) => (d + openHourUtc * 3_600_000) / 1000), indicators: { quote: [{ close: closes }] } }],
        error: null,
      },
    },
  };
}

/** FRED, Yahoo and Binance spot (as ccxt calls it) in their documented shapes; every other provider is down (503). */
function answer(path: string): FakeAnswer {
  const s = series();
  const days = s.map((p) => p.day);
  const yesterday = days.at(-1) ?? 0;
  const iso = (d: number) => new Date(d).toISOString().slice(0, 10);
  if (path.startsWith("/graph/fredgraph.csv?id=DGS10")) {
    return { raw: `observation_date,DGS10\n${iso(yesterday - DAY)},4.2\n${iso(yesterday)},4.25\n${iso(yesterday + DAY)},.\n` };
  }
  if (path.startsWith("/graph/fredgraph.csv?id=VIXCLS")) return { raw: `observation_date,VIXCLS\n${iso(yesterday - DAY)},19\n${iso(yesterday)},22\n` };
  if (path.startsWith("/graph/fredgraph.csv?id=DFEDTARU")) return { raw: `observation_date,DFEDTARU\n${iso(yesterday - DAY)},4.5\n${iso(yesterday)},4.5\n` };
  if (path.startsWith("/v8/finance/chart/DX-Y.NYB")) return chart(days, days.map((_, k) => 100 + k / 10), 5);
  if (path.startsWith("/v8/finance/chart/GC%3DF")) return chart(days, days.map((_, k) => (k === days.length - 1 ? 2400.5 : 2300)), 4);
  if (path.startsWith("/v8/finance/chart/%5ENDX")) return chart(days, s.map((p) => p.ndx), 14.5);
  if (path.startsWith("/api/v3/exchangeInfo")) return { body: binanceSpotExchangeInfo(Date.now()) };
  const query = new URLSearchParams(path.split("?")[1] ?? "");
  if (path.startsWith("/api/v3/klines?")) {
    // BTC's daily closes; no hourly bars (the candle pollers find none).
    const daily = query.get("symbol") === "BTCUSDT" && query.get("interval") === "1d";
    return { body: daily ? s.map((p) => binanceDailyKline(p.day, 4 * p.ndx)) : [] };
  }
  return { status: 503, body: { error: "unavailable" } };
}

describe("MARKET_FEED=live with the FRED and Yahoo adapters wired (local provider server)", () => {
  let server: FakeProviderServer;
  let svc: RunningService;
  let basic: string;

  beforeAll(async () => {
    server = await FakeProviderServer.start();
    server.route(answer);
    const url = server.url;
    svc = await startService(
      { MARKET_FEED: "live", STORE_URL: freshStoreUrl("sqlite", "live-macro") },
      {
        feed: undefined,
        live: {
          baseUrls: { alternativeMe: url, coingecko: url, coinmetrics: url, defillama: url, deribit: url, fred: url, yahoo: url, solanaRpc: url, subtensorRpc: url },
          // A real ccxt binance, as the service builds it: BTC's daily closes come through it.
          spot: localBinanceSpot(url, wallClock),
          futures: noDerivatives,
          liquidations: quietLiquidations(),
          resilience: { retry: { attempts: 1, baseDelayMs: 5, maxDelayMs: 20 }, breaker: { failureThreshold: 5, cooldownMs: 60_000 } },
        },
      },
    );
    basic = await createKey(svc, "basic");
    await waitFor(
      async () => {
        const latest = svc.service.deps.feed.latestReadings(Date.now());
        return latest.has("US10Y") && latest.has("BTC_NASDAQ_CORR");
      },
      20_000,
      "the first FRED and Yahoo polls",
    );
  });
  afterAll(async () => {
    await svc?.stop();
    await server?.close();
  });

  it("serves US10Y, DXY, GOLD and BTC_NASDAQ_CORR as LIVE from the fetched daily closes", async () => {
    const res = await fetch(`${svc.url}/v1/signals/latest`, { headers: { "x-api-key": basic } });
    expect(res.status).toBe(200);
    const byKey = new Map(signalsSnapshotSchema.parse(await res.json()).signals.map((s) => [s.key, s]));
    expect(byKey.get("US10Y")).toMatchObject({ status: "LIVE", value: 4.25 });
    expect(byKey.get("DXY")).toMatchObject({ status: "LIVE", value: 105.9 });
    expect(byKey.get("GOLD")).toMatchObject({ status: "LIVE", value: 2400.5 });
    expect(byKey.get("BTC_NASDAQ_CORR")?.status).toBe("LIVE");
    expect(byKey.get("BTC_NASDAQ_CORR")?.value).toBeCloseTo(1, 2);
    // Providers that answer 503 stay unobserved.
    expect(byKey.get("FEAR_GREED_INDEX")).toMatchObject({ status: "DEAD", value: null });
  });

  it("serves GET /v1/macro/correlation from the live daily series: five LIVE items with values and correlations", async () => {
    const res = await fetch(`${svc.url}/v1/macro/correlation`, { headers: { "x-api-key": basic } });
    expect(res.status).toBe(200);
    const body = macroCorrelationSchema.parse(await res.json());
    const byKey = new Map(body.signals.map((s) => [s.key, s]));
    expect(byKey.get("US10Y")).toMatchObject({ status: "LIVE", value: 4.25 });
    expect(byKey.get("US10Y")?.change_24h_pct).toBe(1.1905); // (4.25 / 4.2 − 1) × 100, at 4 decimals
    expect(byKey.get("GOLD")).toMatchObject({ status: "LIVE", value: 2400.5 });
    expect(byKey.get("NASDAQ")?.status).toBe("LIVE");
    // BTC moves in proportion to the Nasdaq-100 in the fixture; DXY only drifts.
    expect(byKey.get("NASDAQ")?.correlation_30d).toBeCloseTo(1, 2);
    expect(byKey.get("BTC_NASDAQ_CORR")).toMatchObject({ status: "LIVE", change_24h_pct: null, correlation_30d: null });
    for (const s of body.signals) expect(s.value, s.key).not.toBeNull();
    expect(body.risk_off_score).toBeGreaterThan(0);
  });
});
