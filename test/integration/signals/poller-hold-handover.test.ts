import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { loadConfig } from "../../../src/config/env.js";
import { openMarket, type Market } from "../../../src/composition/open-market.js";
import { ManualClock } from "../../../src/runtime/clocks/clock.js";
import { LocalActorHost } from "../../../src/runtime/local/local-host.js";
import { MarketPollerActor, POLL_TURN_BUDGET_MS } from "../../../src/actors/market-poller-actor.js";
import { openStore } from "../../../src/store/open-store.js";
import type { Store } from "../../../src/store/store.js";
import { captureLogger } from "../../support/capture-logger.js";
import { quietLiquidations } from "../../support/quiet-liquidations.js";
import { noBars, noDerivatives } from "../../support/quiet-exchanges.js";
import { freshStoreUrl, type StoreKind } from "../../support/service.js";
import { COINGECKO_GLOBAL, coingeckoRateLimited } from "../../support/coingecko-rate-limit.js";
import { FakeProviderServer } from "../../unit/feeds/live/fake-provider-server.js";

const MINUTE = 60_000;
/** CoinGecko's ask: thirty minutes, far past what one poll may wait (its retries cap at 20 ms). */
const RETRY_AFTER_S = 1_800;

/**
 * A poller actor that moves (a Dapr replica leaves, placement hands its actors to another) or a
 * process that restarts: the provider's rate-limit ask must survive the move, since calling
 * through a ban is what lengthens it. Two hosts on one store stand for the two replicas; each
 * opens its own market, so the second starts with a fresh, closed circuit breaker.
 */
describe.each<StoreKind>(["sqlite", "mongodb"])("a provider's rate-limit hold outlives its poller's activation, on %s", (kind) => {
  let server: FakeProviderServer;
  let store: Store;
  const clock = new ManualClock(Date.now());
  const log = captureLogger("silent");
  const running: { host: LocalActorHost; market: Market }[] = [];
  const globalHits = () => server.requests.filter((p) => p.startsWith(COINGECKO_GLOBAL)).length;

  /** One replica: its own market (pollers, breakers) and actor host, on the shared store. */
  async function replica(): Promise<LocalActorHost> {
    const config = loadConfig({ MARKET_FEED: "live", LOG_LEVEL: "silent" });
    const market = await openMarket(config, clock, undefined, {
      baseUrls: { coingecko: server.url },
      // Only the CoinGecko poller is scheduled here; the exchanges stand in, never asked.
      spot: noBars,
      futures: noDerivatives,
      liquidations: quietLiquidations(),
      resilience: { retry: { attempts: 2, baseDelayMs: 5, maxDelayMs: 20 }, breaker: { failureThreshold: 5, cooldownMs: MINUTE } },
    });
    const host = new LocalActorHost({ store: store.actorState, clock, logger: log.logger, pollIntervalMs: 0 });
    const byId = new Map(market.pollers.map((p) => [p.id, p]));
    host.register(MarketPollerActor, (ctx) => new MarketPollerActor(ctx, byId.get(ctx.id)));
    await host.start();
    running.push({ host, market });
    return host;
  }

  async function leave(host: LocalActorHost): Promise<void> {
    const r = running.find((x) => x.host === host);
    await host.shutdown();
    await r?.market.stop();
  }

  beforeAll(async () => {
    server = await FakeProviderServer.start();
    server.route(coingeckoRateLimited(RETRY_AFTER_S));
    store = await openStore(freshStoreUrl(kind, "pollhold"));
  });
  afterAll(async () => {
    for (const r of running) {
      await r.host.shutdown();
      await r.market.stop();
    }
    await store?.close();
    await server?.close();
  });

  it("the replica the poller moves to calls nothing until the ask ends, then polls and clears it", async () => {
    const first = await replica();
    await first.proxy(MarketPollerActor, "coingecko").ensureScheduled();
    await first.runDue();
    expect(globalHits()).toBe(1);
    await leave(first);

    // CoinGecko answers again (counting its requests afresh), but it asked for thirty minutes: the
    // poller's next firings, now on the second replica (every 5 minutes), leave it alone until then.
    server.route((path) =>
      path.startsWith(COINGECKO_GLOBAL) ? { body: { data: { market_cap_percentage: { btc: 58.5 }, updated_at: Math.floor(clock.now() / 1000) } } } : { status: 503, body: {} },
    );
    const second = await replica();
    const t0 = clock.now();
    for (let m = 5; m < RETRY_AFTER_S / 60; m += 5) {
      clock.set(t0 + m * MINUTE);
      await second.runDue();
    }
    expect(globalHits()).toBe(0);

    // Past the ask, the next firing polls, and the reading lands in this replica's feed.
    clock.set(t0 + (RETRY_AFTER_S / 60 + 5) * MINUTE);
    await second.runDue();
    expect(globalHits()).toBe(1);
    const market = running.at(-1)?.market;
    expect(market?.feed.latestReadings(clock.now()).get("BTC_DOMINANCE")?.value).toBe(58.5);
    await leave(second);

    // The answered poll cleared the hold: a third replica polls at its first firing.
    const third = await replica();
    clock.set(clock.now() + 5 * MINUTE);
    await third.runDue();
    expect(globalHits()).toBe(2);
    await leave(third);
  });

  it("a hold heard after the poll's turn gave up waiting is saved at once, not at the next firing", async () => {
    // CoinGecko takes longer to say "thirty minutes" than a poll turn waits (POLL_TURN_BUDGET_MS),
    // so the turn ends first and the poll meets the ask in the background.
    server.route(coingeckoRateLimited(RETRY_AFTER_S, POLL_TURN_BUDGET_MS + 500));
    const first = await replica();
    await first.proxy(MarketPollerActor, "coingecko").ensureScheduled();
    clock.set(clock.now() + 5 * MINUTE);
    await first.runDue();
    expect(globalHits()).toBe(1);

    // The actor saves the ask once the poll ends, before any other firing.
    const holdSaved = async () => (await store.actorState.loadState({ type: MarketPollerActor.actorType, id: "coingecko" })).get("providerHoldUntil");
    await vi.waitFor(async () => expect(await holdSaved()).toBeDefined(), { timeout: 5_000, interval: 50 });
    expect(Number(await holdSaved())).toBeGreaterThan(Date.now() + (RETRY_AFTER_S - 60) * 1000);
    await leave(first);

    // So the replica it moves to leaves CoinGecko alone within the thirty minutes.
    const second = await replica();
    clock.set(clock.now() + 5 * MINUTE);
    await second.runDue();
    expect(globalHits()).toBe(1);
  });
});
