import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../../src/config/env.js";
import { buildService, type Service } from "../../../src/composition/build-service.js";
import { freshStoreUrl } from "../../support/service.js";
import { sharedReplayFeed } from "../../support/replay-feed.js";
import { probeRoutes, type ProbeState } from "../../support/probe-routes.js";
import type { Capability } from "../../../src/composition/capability.js";
import { freePort } from "../../support/free-port.js";
import { Actor } from "../../../src/runtime/actor.js";
import { MarketDataActor } from "../../../src/actors/market-data-actor.js";
import { defaultReplayStart } from "../../../src/feeds/replay/replay-start.js";

/**
 * Responses are not cached while market time warms up: the fast-forward moves it by minutes per
 * wall millisecond, and a body cached then was served for its whole TTL after the warm-up (the
 * Dapr warm-up test met a "latest" verdict 13 market days old that way).
 */
describe("the response cache during warm-up", () => {
  let service: Service;
  let url: string;
  let key: string;
  const probe: ProbeState = { computed: 0 };

  beforeAll(async () => {
    const config = loadConfig({ STORE_URL: freshStoreUrl("sqlite", "warm-cache"), LOG_LEVEL: "silent", REPLAY_WARMUP_DAYS: "14", PORT: "0", HOST: "127.0.0.1" });
    service = await buildService(config, { feed: await sharedReplayFeed(), routeSets: [probeRoutes(probe)] });
    key = (await service.deps.keyIssuer.create("pro", "warm-cache", null)).apiKey;
    url = `http://127.0.0.1:${await service.listen()}`;
  }, 60_000);
  afterAll(() => service.stop());

  const get = () => fetch(`${url}/v1/probe/cached`, { headers: { "x-api-key": key } });

  it("answers every request afresh, with cache_ttl_seconds 0 and no-store, until market time runs", async () => {
    expect(service.deps.marketClock.warmingUp).toBe(true);
    const first = await get();
    const second = await get();
    // Still inside the 14-day fast-forward (it takes seconds): the two answers above fell in it.
    expect(service.deps.marketClock.warmingUp).toBe(true);
    const a = (await first.json()) as { computed: number; cached: boolean; cache_ttl_seconds: number };
    const b = (await second.json()) as typeof a;
    expect(a).toMatchObject({ cached: false, cache_ttl_seconds: 0 });
    expect(b).toMatchObject({ cached: false, cache_ttl_seconds: 0 });
    expect(b.computed).toBe(a.computed + 1);
    expect(second.headers.get("cache-control")).toBe("no-store");
    // Readiness says the start-up is on its way, not that it failed (an operator tells them apart).
    const ready = await fetch(`${url}/v1/health/ready`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toMatchObject({ status: "unavailable", checks: { store: "ok", startup: "pending", actors: "ok" } });
  });

  it("caches as usual once the warm-up is over", async () => {
    await service.warmedUp;
    expect(service.deps.marketClock.warmingUp).toBe(false);
    const a = (await (await get()).json()) as { computed: number; cached: boolean; cache_ttl_seconds: number };
    const b = (await (await get()).json()) as typeof a;
    expect(a.cached).toBe(false);
    expect(b).toMatchObject({ computed: a.computed, cached: true });
    const ready = await fetch(`${url}/v1/health/ready`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({ status: "ok", checks: { store: "ok", startup: "ok", actors: "ok" } });
  }, 90_000);
});

describe("readiness while a start-up fails and is retried", () => {
  it("says startup: failed while a failed attempt waits for its retry, then ok", async () => {
    let attempts = 0;
    const flaky: Capability = {
      name: "flaky",
      registerActors: () => {},
      start: async () => {
        attempts += 1;
        if (attempts === 1) throw new Error("the store refused a schedule");
      },
      routes: () => [],
    };
    const port = await freePort();
    const config = loadConfig({ STORE_URL: freshStoreUrl("sqlite", "flaky-start"), LOG_LEVEL: "silent", REPLAY_WARMUP_DAYS: "0", PORT: String(port), HOST: "127.0.0.1" });
    const service = await buildService(config, { feed: await sharedReplayFeed(), capabilities: [flaky] });
    try {
      // The API listens before the capabilities start; listen() resolves once they have.
      const listening = service.listen();
      const url = `http://127.0.0.1:${port}`;
      const ready = async () => {
        const res = await fetch(`${url}/v1/health/ready`).catch(() => null);
        return res === null ? null : { status: res.status, startup: ((await res.json()) as { checks: Record<string, string> }).checks.startup };
      };
      // The retry waits a second after the first attempt failed.
      await expect.poll(ready, { timeout: 5_000, interval: 50 }).toEqual({ status: 503, startup: "failed" });
      await listening;
      await service.warmedUp;
      expect(attempts).toBe(2);
      expect(await ready()).toEqual({ status: 200, startup: "ok" });
    } finally {
      await service.stop();
    }
  });
});

describe("a stop while a failed start-up waits for its retry", () => {
  it("ends the wait at once: listen() gives up without another attempt, long before the retry was due", async () => {
    let attempts = 0;
    const failing: Capability = {
      name: "failing",
      registerActors: () => {},
      start: async () => {
        attempts += 1;
        throw new Error("the store refused a schedule");
      },
      routes: () => [],
    };
    const config = loadConfig({ STORE_URL: freshStoreUrl("sqlite", "failing-start"), LOG_LEVEL: "silent", REPLAY_WARMUP_DAYS: "0", PORT: "0", HOST: "127.0.0.1" });
    const service = await buildService(config, { feed: await sharedReplayFeed(), capabilities: [failing] });
    const listening = service.listen().then(
      () => "listening",
      (err: unknown) => (err instanceof Error ? err.message : String(err)),
    );
    // Three failures: the next attempt is due 3 s after the third.
    await expect.poll(() => attempts, { timeout: 10_000, interval: 20 }).toBe(3);
    const stoppedAt = Date.now();
    await service.stop();
    expect(await listening).toBe("the service was stopped during its start-up");
    // On the code before, listen() waited out the 3 s and made a fourth attempt on a closed store.
    expect(Date.now() - stoppedAt).toBeLessThan(2_000);
    expect(attempts).toBe(3);
  }, 30_000);
});

describe("a replay start whose read of the recorded position fails", () => {
  it("asks again and warms up, instead of running market time unwarmed from a day before REPLAY_START", async () => {
    let reads = 0;
    /** Stands where the real MarketData actor is asked how far the store has been recorded: a store that fails twice. */
    class UnansweringMarketData extends Actor {
      static readonly actorType = MarketDataActor.actorType;
      async position(): Promise<number | null> {
        reads += 1;
        if (reads <= 2) throw new Error("the store did not answer");
        return null;
      }
    }
    const marketData: Capability = {
      name: "market-data",
      registerActors: (ctx) => ctx.host.register(UnansweringMarketData, (actor) => new UnansweringMarketData(actor)),
      start: async () => {},
      routes: () => [],
    };
    const feed = await sharedReplayFeed();
    const port = await freePort();
    const config = loadConfig({ STORE_URL: freshStoreUrl("sqlite", "position-fails"), LOG_LEVEL: "silent", REPLAY_WARMUP_DAYS: "1", PORT: String(port), HOST: "127.0.0.1" });
    const service = await buildService(config, { feed, capabilities: [marketData] });
    try {
      await service.listen();
      const ready = async () => {
        const res = await fetch(`http://127.0.0.1:${port}/v1/health/ready`);
        return { status: res.status, startup: ((await res.json()) as { checks: Record<string, string> }).checks.startup };
      };
      await expect.poll(ready, { timeout: 5_000, interval: 50 }).toEqual({ status: 503, startup: "failed" });
      await service.warmedUp;
      expect(reads).toBe(3);
      // Warmed up through the day before REPLAY_START: market time runs from there. On the code
      // before, the first failure let it run unwarmed from a day earlier.
      expect(service.deps.marketClock.warmingUp).toBe(false);
      expect(service.deps.marketClock.now()).toBeGreaterThanOrEqual(defaultReplayStart(feed.span()));
      expect(await ready()).toEqual({ status: 200, startup: "ok" });
    } finally {
      await service.stop();
    }
  }, 60_000);
});

