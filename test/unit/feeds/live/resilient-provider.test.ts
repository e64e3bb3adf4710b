import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildSignalsSnapshot } from "../../../../src/domain/signals/snapshot.js";
import { ManualClock } from "../../../../src/runtime/clocks/clock.js";
import { AlternativeMeProvider } from "../../../../src/feeds/live/alternative-me.js";
import { ReadingCache } from "../../../../src/feeds/live/reading-cache.js";
import { ResilientProvider, type ResilienceOptions } from "../../../../src/feeds/live/resilient-provider.js";
import { MAX_PROVIDER_HOLD_MS } from "../../../../src/feeds/live/circuit-breaker.js";
import { FakeProviderServer } from "./fake-provider-server.js";
import { LiveMarketFeed } from "../../../../src/feeds/live/live-market-feed.js";

const DAY = 86_400_000;
const T0 = Date.parse("2026-03-23T00:00:00Z");
// alternative.me's documented answer for GET /fng/?limit=1
const fng = (value: string, ts = T0 / 1000) => ({
  name: "Fear and Greed Index",
  data: [{ value, value_classification: "Fear", timestamp: String(ts), time_until_update: "3600" }],
  metadata: { error: null },
});

describe("ResilientProvider around alternative.me on a local HTTP server", () => {
  let server: FakeProviderServer;
  let clock: ManualClock;
  let delays: number[];
  const options = (): ResilienceOptions => ({
    retry: { attempts: 3, baseDelayMs: 100, maxDelayMs: 1000, random: () => 0.5, sleep: async (ms) => void delays.push(ms) },
    breaker: { failureThreshold: 2, cooldownMs: 60_000 },
  });
  const provider = (timeoutMs = 2000) =>
    new ResilientProvider(new AlternativeMeProvider(server.url, timeoutMs), clock, options());

  beforeAll(async () => {
    server = await FakeProviderServer.start();
  });
  afterAll(async () => {
    await server.close();
  });
  const reset = () => {
    clock = new ManualClock(T0 + 3_600_000);
    delays = [];
  };

  it("returns the reading from the documented payload", async () => {
    reset();
    server.script({ body: fng("40") });
    const r = await provider().poll();
    expect(r).toEqual({
      ok: true,
      readings: [{ key: "FEAR_GREED_INDEX", value: 40, observedAt: T0, source: "alternative.me" }],
    });
    expect(server.requests).toEqual(["/fng/?limit=1"]);
  });

  it("rejects a malformed payload with zod and does not retry it", async () => {
    reset();
    server.script({ body: { data: [{ value: "forty", timestamp: "x" }] } });
    const p = provider();
    const r = await p.poll();
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.kind).toBe("malformed");
    expect(server.requests).toHaveLength(1);
    expect(p.health()).toMatchObject({ circuit: "CLOSED", consecutiveFailures: 1, lastError: { kind: "malformed" } });
  });

  it("rejects a body that is not JSON", async () => {
    reset();
    server.script({ raw: "<html>maintenance</html>" });
    const r = await provider().poll();
    expect(!r.ok && r.error.kind).toBe("malformed");
  });

  it("retries a 429 after the Retry-After it asks for, then succeeds", async () => {
    reset();
    // Up to the cap (1 s here, 10 s in service): longer than the backoff's own 75 ms.
    server.script({ status: 429, body: { error: "rate limited" }, headers: { "retry-after": "1" } }, { body: fng("41") });
    const r = await provider().poll();
    expect(r.ok && r.readings[0]?.value).toBe(41);
    expect(server.requests).toHaveLength(2);
    expect(delays).toEqual([1000]);
  });

  it("fails the poll at once, recorded, when a 429's Retry-After is longer than a poll may wait", async () => {
    reset();
    server.script({ status: 429, body: { error: "banned" }, headers: { "retry-after": "86400" } }, { body: fng("41") });
    const p = provider();
    const r = await p.poll();
    expect(!r.ok && r.error.kind).toBe("rate_limited");
    expect(server.requests).toHaveLength(1);
    expect(delays).toEqual([]);
    expect(p.health()).toMatchObject({ consecutiveFailures: 1, lastError: { kind: "rate_limited" } });
    // And it is left alone for as long as it asked, past the breaker's own 60 s cool-down.
    expect(p.health().circuit).toBe("OPEN");
    clock.advance(3_600_000);
    expect(!(await p.poll()).ok && server.requests).toHaveLength(1);
    clock.advance(86_400_000);
    expect(p.health().circuit).toBe("HALF_OPEN");
    expect((await p.poll()).ok).toBe(true);
  });

  it("hands over the provider's ask, and a fresh provider given it calls nothing until it ends", async () => {
    reset();
    server.script({ status: 429, body: { error: "banned" }, headers: { "retry-after": "7200" } }, { body: fng("41") });
    const first = provider();
    expect((await first.poll()).ok).toBe(false);
    const until = T0 + 3_600_000 + 7_200_000;
    expect(first.providerHoldUntil()).toBe(until);
    // Another process's provider starts closed; told of the hold, it refuses to call until then.
    const second = provider();
    expect(second.health().circuit).toBe("CLOSED");
    second.holdUntil(until);
    clock.advance(3_600_000);
    const refused = await second.poll();
    expect(!refused.ok && refused.error.kind).toBe("circuit_open");
    expect(server.requests).toHaveLength(1);
    expect(second.providerHoldUntil()).toBe(until);
    clock.advance(3_600_000);
    expect(second.providerHoldUntil()).toBeNull();
    expect((await second.poll()).ok).toBe(true);
    expect(server.requests).toHaveLength(2);
  });

  it("honours an ask of years for three days at the most, whether heard or handed over", async () => {
    reset();
    // Ten years: a proxy's fault, not a limit. Kept in the actor's state, a restart would not end it.
    server.script({ status: 429, body: { error: "banned" }, headers: { "retry-after": String(10 * 365 * 86_400) } }, { body: fng("41") });
    const heard = provider();
    expect((await heard.poll()).ok).toBe(false);
    expect(heard.providerHoldUntil()).toBe(clock.now() + MAX_PROVIDER_HOLD_MS);
    const handed = provider();
    handed.holdUntil(clock.now() + 10 * 365 * DAY);
    expect(handed.providerHoldUntil()).toBe(clock.now() + MAX_PROVIDER_HOLD_MS);
    clock.advance(MAX_PROVIDER_HOLD_MS - 1);
    expect(heard.health().circuit).toBe("OPEN");
    expect(!(await handed.poll()).ok && server.requests).toHaveLength(1);
    clock.advance(1);
    expect(heard.health().circuit).toBe("HALF_OPEN");
    expect((await heard.poll()).ok).toBe(true);
    expect((await handed.poll()).ok).toBe(true);
  });

  it("hands over no hold for the breaker's own cool-down, and ignores a past or shorter hold", async () => {
    reset();
    server.script({ status: 400, body: { error: "bad" } });
    const p = provider();
    await p.poll();
    await p.poll();
    expect(p.health().circuit).toBe("OPEN");
    // Opened by plain failures: this process's judgement, not the provider's ask.
    expect(p.providerHoldUntil()).toBeNull();
    // A hold already over, or ending before the open circuit's own, changes nothing.
    p.holdUntil(clock.now() - 1);
    p.holdUntil(clock.now() + 30_000);
    expect(p.providerHoldUntil()).toBeNull();
    clock.advance(60_000);
    expect(p.health().circuit).toBe("HALF_OPEN");
  });

  it("retries 5xx with exponential backoff and gives up after the attempts", async () => {
    reset();
    server.script({ status: 503, body: {} });
    const r = await provider().poll();
    expect(!r.ok && r.error.kind).toBe("http");
    expect(!r.ok && r.error.status).toBe(503);
    expect(server.requests).toHaveLength(3);
    expect(delays).toEqual([75, 150]); // full jitter at random()=0.5: ¾ of 100·2^(n−1)
  });

  it("times out a provider that does not answer", async () => {
    reset();
    server.script({ delayMs: 1500, body: fng("42") });
    const p = new ResilientProvider(new AlternativeMeProvider(server.url, 100), clock, {
      ...options(),
      retry: { ...options().retry, attempts: 1 },
    });
    const r = await p.poll();
    expect(!r.ok && r.error.kind).toBe("timeout");
  });

  it("opens the circuit after repeated failures, then lets one trial through after the cool-down", async () => {
    reset();
    server.script({ status: 400, body: { error: "bad" } }); // not retryable: one request per poll
    const p = provider();
    await p.poll();
    await p.poll();
    expect(p.health().circuit).toBe("OPEN");
    const refused = await p.poll();
    expect(!refused.ok && refused.error.kind).toBe("circuit_open");
    expect(server.requests).toHaveLength(2);
    clock.advance(60_000);
    expect(p.health().circuit).toBe("HALF_OPEN");
    server.script({ body: fng("43") });
    const trial = await p.poll();
    expect(trial.ok).toBe(true);
    expect(p.health()).toMatchObject({ circuit: "CLOSED", consecutiveFailures: 0, lastSuccessAt: clock.now() });
  });

  it("lets the signal age into STALE while the provider keeps failing — nothing crashes or is invented", async () => {
    reset();
    const cache = new ReadingCache();
    const p = provider();
    server.script({ body: fng("44") });
    const first = await p.poll();
    if (first.ok) cache.record(first.readings);
    clock.set(T0 + 2 * DAY + 1);
    server.script({ body: { data: [] } });
    const failed = await p.poll();
    expect(failed.ok).toBe(false);
    const snap = buildSignalsSnapshot({
      mode: "live",
      at: clock.now(),
      readings: cache.latest(clock.now()),
      calendar: { tier: "NONE", event_name: null, hours_until: 0, is_active: false, status: "CLEAR", complete_until: null },
    });
    expect(snap.signals.find((s) => s.key === "FEAR_GREED_INDEX")).toMatchObject({ status: "STALE", value: 44 });
  });
});

describe("a provider's stamp from the future (milliseconds read as seconds)", () => {
  let server: FakeProviderServer;
  beforeAll(async () => {
    server = await FakeProviderServer.start();
  });
  afterAll(async () => {
    await server.close();
  });

  it("is dropped, so the real readings after it still count and the signal stays live", async () => {
    const clock = new ManualClock(T0 + 3_600_000);
    const feed = new LiveMarketFeed(clock, { id: "none", fetchHourly: async () => [] }, []);
    const provider = new ResilientProvider(new AlternativeMeProvider(server.url, 2000), clock, {
      retry: { attempts: 1, baseDelayMs: 100, maxDelayMs: 1000, random: () => 0.5, sleep: async () => undefined },
      breaker: { failureThreshold: 2, cooldownMs: 60_000 },
    });
    // The first answer's stamp is in milliseconds: year 58,880 when read as seconds.
    server.script({ body: fng("41", T0) }, { body: fng("42", T0 / 1000) }, { body: fng("43", (T0 + DAY) / 1000) });
    expect((await feed.pollProvider(provider)).ok).toBe(true);
    expect(feed.latestReadings(Number.MAX_SAFE_INTEGER).get("FEAR_GREED_INDEX")).toBeUndefined();
    await feed.pollProvider(provider);
    clock.advance(DAY);
    await feed.pollProvider(provider);
    expect(feed.latestReadings(clock.now()).get("FEAR_GREED_INDEX")).toMatchObject({ value: 43, observedAt: T0 + DAY });
  });
});
