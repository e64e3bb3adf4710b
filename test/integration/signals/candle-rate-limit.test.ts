import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../../src/config/env.js";
import { openMarket, type Market } from "../../../src/composition/open-market.js";
import { ManualClock } from "../../../src/runtime/clocks/clock.js";
import type { OhlcvExchange } from "../../../src/feeds/live/ccxt-candle-source.js";
import type { DerivativesExchange } from "../../../src/feeds/live/ccxt-derivatives.js";
import { quietLiquidations } from "../../support/quiet-liquidations.js";
import { FakeProviderServer } from "../../unit/feeds/live/fake-provider-server.js";

const H = 3_600_000;

/** ccxt's class for Binance's 418/429 answers (ccxt keeps no status; the class name says it). */
class DDoSProtection extends Error {
  override name = "DDoSProtection";
}

describe("the live candle pollers when the exchange rate-limits", () => {
  let server: FakeProviderServer;
  let market: Market;
  const clock = new ManualClock(Date.now());
  let throttled = true;
  let ohlcvCalls = 0;

  beforeAll(async () => {
    server = await FakeProviderServer.start();
    server.route(() => ({ status: 503, body: {} }));
    const spot: OhlcvExchange = {
      async fetchOHLCV(_symbol: string, _tf?: string, since?: number) {
        ohlcvCalls++;
        if (throttled) throw new DDoSProtection("binance 418 I'm a teapot: IP banned until later");
        const hour = Math.floor(clock.now() / H) * H;
        return Array.from({ length: 5 }, (_, i) => hour - (4 - i) * H)
          .filter((t) => since === undefined || t >= since)
          .map((t) => [t, 100, 101, 99, 100.5, 10]);
      },
    };
    const futures: DerivativesExchange = {
      fetchFundingRateHistory: async () => [],
      fetchOpenInterest: async () => ({ openInterestAmount: 1, timestamp: clock.now() }),
    };
    const urls = { alternativeMe: server.url, coingecko: server.url, coinmetrics: server.url, defillama: server.url, deribit: server.url, fred: server.url, yahoo: server.url, binanceSpot: server.url, solanaRpc: server.url, subtensorRpc: server.url };
    market = await openMarket(loadConfig({ MARKET_FEED: "live", LOG_LEVEL: "silent" }), clock, undefined, {
      baseUrls: urls,
      spot,
      futures,
      liquidations: quietLiquidations(),
      resilience: { retry: { attempts: 2, baseDelayMs: 5, maxDelayMs: 20 }, breaker: { failureThreshold: 5, cooldownMs: 60_000 } },
    });
  });
  afterAll(async () => {
    await market?.stop();
    await server?.close();
  });

  it("leaves the exchange alone for the cool-down after a rate limit, then tries once and recovers", async () => {
    const btc = market.pollers.find((p) => p.id === "candles:BTC")!;
    const first = await btc.poll();
    expect(!first.ok && first.error.kind).toBe("rate_limited");
    const callsAfterFirst = ohlcvCalls;
    expect(callsAfterFirst).toBe(2); // the poll and its one retry
    // The next minute's firing, inside the 60 s cool-down, is refused without a call to the exchange.
    clock.set(clock.now() + 30_000);
    const during = await btc.poll();
    expect(!during.ok && during.error.kind).toBe("circuit_open");
    expect(ohlcvCalls).toBe(callsAfterFirst);
    throttled = false;
    clock.set(clock.now() + 31_000);
    const after = await btc.poll();
    expect(after.ok).toBe(true);
    expect(ohlcvCalls).toBe(callsAfterFirst + 1);
  });
});
