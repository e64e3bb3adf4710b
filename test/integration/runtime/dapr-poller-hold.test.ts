import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../../src/config/env.js";
import { openMarket, type Market } from "../../../src/composition/open-market.js";
import { MarketPollerActor, POLL_TURN_BUDGET_MS } from "../../../src/actors/market-poller-actor.js";
import { wallClock } from "../../../src/runtime/clocks/clock.js";
import { fromStoredText } from "../../../src/runtime/dapr/stored-value.js";
import { captureLogger } from "../../support/capture-logger.js";
import { noBars, noDerivatives } from "../../support/quiet-exchanges.js";
import { quietLiquidations } from "../../support/quiet-liquidations.js";
import { COINGECKO_GLOBAL, coingeckoRateLimited } from "../../support/coingecko-rate-limit.js";
import { FakeProviderServer } from "../../unit/feeds/live/fake-provider-server.js";
import { replicaAt, startControlPlane, startReplica, type ControlPlane, type Replica } from "./support/dapr-cluster.js";
import { waitUntil } from "./support/processes.js";

/** CoinGecko's ask: thirty minutes. */
const RETRY_AFTER_S = 1_800;

/**
 * On Dapr, a poll that outlives its turn and then meets a rate limit: the poller actor calls
 * itself through daprd once the poll ends (`recordHold`), and the hold lands in daprd's actor
 * state, where the replica the actor moves to reads it at its next firing. Without that call it
 * waited for the next firing, five minutes on, and was lost if the actor moved first.
 */
describe("a provider's hold heard after the poll's turn reaches Dapr's actor state at once", () => {
  let plane: ControlPlane;
  let server: FakeProviderServer;
  let market: Market;
  const replicas: Replica[] = [];
  const log = captureLogger("silent");

  beforeAll(async () => {
    plane = await startControlPlane();
    server = await FakeProviderServer.start();
    // Slower than a poll turn waits, so the turn ends first and the poll meets the ask afterwards.
    server.route(coingeckoRateLimited(RETRY_AFTER_S, POLL_TURN_BUDGET_MS + 500));
    market = await openMarket(loadConfig({ MARKET_FEED: "live", LOG_LEVEL: "silent" }), wallClock, undefined, {
      baseUrls: { coingecko: server.url },
      spot: noBars,
      futures: noDerivatives,
      liquidations: quietLiquidations(),
      resilience: { retry: { attempts: 1, baseDelayMs: 5, maxDelayMs: 5 }, breaker: { failureThreshold: 5, cooldownMs: 60_000 } },
    });
    const byId = new Map(market.pollers.map((p) => [p.id, p]));
    replicas.push(
      await startReplica(plane, "a", (host) => host.register(MarketPollerActor, (ctx) => new MarketPollerActor(ctx, byId.get(ctx.id))), {
        clock: wallClock,
        logger: log.logger,
      }),
    );
  }, 180_000);

  afterAll(async () => {
    for (const r of replicas) await r.stop();
    await market?.stop();
    await plane?.stop();
    await server?.close();
  }, 60_000);

  it("is saved by a turn of the actor's own, without another firing", async () => {
    const replica = replicaAt(replicas, 0);
    await replica.host.proxy(MarketPollerActor, "coingecko").ensureScheduled();
    const saved = async () => replica.sidecar.getState(MarketPollerActor.actorType, "coingecko", "providerHoldUntil");
    // The reminder fires at once; its turn gives up after 3 s, the 429 comes at 3.5 s, and the
    // next firing is five minutes away: only the actor's own call can save it within this wait.
    await waitUntil("the provider's hold in daprd's actor state", async () => (await saved()) !== undefined, 30_000, replica.daprd);
    expect(Number(fromStoredText((await saved()) ?? ""))).toBeGreaterThan(Date.now() + (RETRY_AFTER_S - 120) * 1000);
    expect(server.requests.filter((p) => p.startsWith(COINGECKO_GLOBAL))).toHaveLength(1);
  }, 60_000);
});
