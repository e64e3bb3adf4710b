import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ManualClock } from "../../../../src/runtime/clocks/clock.js";
import { JsonRpcError } from "../../../../src/feeds/live/json-rpc.js";
import { LiveMarketFeed } from "../../../../src/feeds/live/live-market-feed.js";
import { ProviderError } from "../../../../src/feeds/live/provider-error.js";
import { ResilientProvider, type ResilienceOptions } from "../../../../src/feeds/live/resilient-provider.js";
import {
  decodeLittleEndian,
  stakingRatioPct,
  SubtensorProvider,
  TOTAL_ISSUANCE_KEY,
  TOTAL_NETWORKS_KEY,
  TOTAL_STAKE_KEY,
} from "../../../../src/feeds/live/subtensor-rpc.js";
import { FakeProviderServer, type FakeAnswer } from "./fake-provider-server.js";

const NOW = Date.parse("2026-05-01T12:00:00Z");
const H = 3_600_000;
const DAY = 24 * H;
const RAO = 1_000_000_000n;

/** SCALE encodings as the node sends them: little-endian, 0x-hex. */
const u64 = (v: bigint) => {
  const b = Buffer.alloc(8);
  b.writeBigUInt64LE(v);
  return `0x${b.toString("hex")}`;
};
const u16 = (v: number) => {
  const b = Buffer.alloc(2);
  b.writeUInt16LE(v);
  return `0x${b.toString("hex")}`;
};

const ok = (result: unknown): FakeAnswer => ({ body: { jsonrpc: "2.0", result, id: 1 } });
const rpcError = (code: number, message: string): FakeAnswer => ({ body: { jsonrpc: "2.0", error: { code, message }, id: 1 } });
const storageKey = (body: string) => (JSON.parse(body) as { params: string[] }).params[0];

const noRetry: ResilienceOptions = { retry: { attempts: 1, baseDelayMs: 1, maxDelayMs: 1 }, breaker: { failureThreshold: 100, cooldownMs: 1 } };

describe("subtensor state_getStorage adapter on a local HTTP server", () => {
  let server: FakeProviderServer;
  const clock = new ManualClock(NOW);
  /** What the chain holds; a test may replace one item's answer. */
  let chain: { stake: unknown; issuance: unknown; networks: unknown };
  const serveChain = () =>
    server.route((_path, body) => {
      const key = storageKey(body);
      if (key === TOTAL_STAKE_KEY) return ok(chain.stake);
      if (key === TOTAL_ISSUANCE_KEY) return ok(chain.issuance);
      if (key === TOTAL_NETWORKS_KEY) return ok(chain.networks);
      return ok(null);
    });

  beforeAll(async () => {
    server = await FakeProviderServer.start();
  });
  afterAll(async () => {
    await server.close();
  });
  beforeEach(() => {
    clock.set(NOW);
    // 5.5 M TAO staked of 7.5 M issued: 5.5 / 7.5 = 0.7333… → 73.33 %; 129 subnets.
    chain = { stake: u64(5_500_000n * RAO), issuance: u64(7_500_000n * RAO), networks: u16(129) };
    serveChain();
  });

  it("reads TotalStake, TotalIssuance and TotalNetworks in one poll and stamps the fetch time", async () => {
    expect(await new SubtensorProvider(clock, server.url).poll()).toEqual([
      { key: "TAO_STAKING_RATIO", value: 73.33, observedAt: NOW, source: "subtensor" },
      { key: "TAO_SUBNET_COUNT", value: 129, observedAt: NOW, source: "subtensor" },
    ]);
    const calls = server.bodies.map((b) => JSON.parse(b) as { jsonrpc: string; method: string; params: string[] });
    expect(calls.every((c) => c.jsonrpc === "2.0" && c.method === "state_getStorage" && c.params.length === 1)).toBe(true);
    expect(calls.map((c) => c.params[0]).sort()).toEqual([TOTAL_STAKE_KEY, TOTAL_ISSUANCE_KEY, TOTAL_NETWORKS_KEY].sort());
  });

  it("decodes little-endian integers exactly, beyond 2^53, and rounds the ratio half up in integers", () => {
    // 2^53 + 1 = 0x0020000000000001: a double would read it as 2^53.
    expect(decodeLittleEndian("0x0100000000002000")).toBe(9_007_199_254_740_993n);
    expect(decodeLittleEndian("0xffffffffffffffff")).toBe(2n ** 64n - 1n);
    expect(decodeLittleEndian(u16(129))).toBe(129n);
    // 1 / 800 = 0.125 % → 0.13; 2 / 3 = 66.666… % → 66.67; all staked → 100.
    expect(stakingRatioPct(1n, 800n)).toBe(0.13);
    expect(stakingRatioPct(2n, 3n)).toBe(66.67);
    expect(stakingRatioPct(7n * RAO, 7n * RAO)).toBe(100);
    expect(stakingRatioPct(0n, 7n * RAO)).toBe(0);
  });

  it("reads totals above 2^53 rao as the chain holds them", async () => {
    // 11,218,142.119340581 TAO issued, 7,853,210.5 TAO staked: 7853210.5 / 11218142.119340581 = 0.70004… → 70.0 %.
    chain = { ...chain, stake: u64(7_853_210_500_000_000n), issuance: u64(11_218_142_119_340_581n) };
    const figures = await new SubtensorProvider(clock, server.url).poll();
    expect(figures.find((f) => f.key === "TAO_STAKING_RATIO")?.value).toBe(70);
  });

  it.each([
    ["null storage (item not found)", { stake: null }],
    ["a u64 of four bytes", { issuance: "0x00e1f505" }],
    ["a u16 of eight bytes", { networks: u64(129n) }],
    ["hex without 0x", { stake: u64(1n).slice(2) }],
    ["non-hex digits", { stake: "0x00000000000000zz" }],
    ["a number instead of hex", { networks: 129 }],
    ["stake above issuance", { stake: u64(8_000_000n * RAO) }],
    ["zero issuance", { stake: u64(0n), issuance: u64(0n) }],
  ])("rejects %s as malformed: nothing is passed on", async (_name, change) => {
    chain = { ...chain, ...change };
    const err = await new SubtensorProvider(clock, server.url).poll().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderError);
    expect((err as ProviderError).kind).toBe("malformed");
    expect((err as ProviderError).retryable).toBe(false);
  });

  it("turns a JSON-RPC error object into a JsonRpcError: node trouble is retryable, a bad call is not", async () => {
    server.route((_p, body) => (storageKey(body) === TOTAL_ISSUANCE_KEY ? rpcError(-32603, "Internal error") : ok(u64(1n))));
    const internal = await new SubtensorProvider(clock, server.url).poll().catch((e: unknown) => e);
    expect(internal).toBeInstanceOf(JsonRpcError);
    expect(internal).toMatchObject({ kind: "rpc", code: -32603, retryable: true });
    server.script(rpcError(-32602, "Invalid params: invalid hex"));
    expect(await new SubtensorProvider(clock, server.url).poll().catch((e: unknown) => e)).toMatchObject({ kind: "rpc", code: -32602, retryable: false });
    server.script(rpcError(429, "Too many requests"));
    expect(await new SubtensorProvider(clock, server.url).poll().catch((e: unknown) => e)).toMatchObject({ kind: "rate_limited", retryable: true });
  });

  it("HTTP 429 with Retry-After, and 5xx, are transient provider errors", async () => {
    server.script({ status: 429, raw: "Too Many Requests", headers: { "retry-after": "30" } });
    expect(await new SubtensorProvider(clock, server.url).poll().catch((e: unknown) => e)).toMatchObject({ kind: "rate_limited", retryAfterMs: 30_000, retryable: true });
    server.script({ status: 502, raw: "Bad Gateway" });
    expect(await new SubtensorProvider(clock, server.url).poll().catch((e: unknown) => e)).toMatchObject({ kind: "http", status: 502, retryable: true });
    server.route((_p, body) => (storageKey(body) === TOTAL_NETWORKS_KEY ? { status: 503, body: {} } : ok(u64(1n))));
    expect(await new SubtensorProvider(clock, server.url).poll().catch((e: unknown) => e)).toMatchObject({ kind: "http", status: 503 });
  });

  it("times out a node that does not answer", async () => {
    server.script({ delayMs: 1_000, ...ok(u64(1n)) });
    expect(await new SubtensorProvider(clock, server.url, 100).poll().catch((e: unknown) => e)).toMatchObject({ kind: "timeout", retryable: true });
  });

  it("through the live feed: levels at once, the 7-day change once a week-old value exists; a failed poll adds nothing", async () => {
    const feed = new LiveMarketFeed(clock, { id: "none", fetchHourly: async () => [] }, []);
    const provider = new ResilientProvider(new SubtensorProvider(clock, server.url), clock, noRetry);
    expect((await feed.pollFigures(provider)).ok).toBe(true);
    expect(feed.networkFigures(NOW)).toMatchObject({ taoStakingRatioPct: 73.33, taoStakingRatioChange7dPct: null, taoSubnetCount: 129, taoSubnetCountChange30dPct: null });

    // A week on, 5.2 M of 7.525 M TAO is staked: 69.10 %, 4.23 percentage points below 73.33.
    clock.set(NOW + 7 * DAY);
    chain = { stake: u64(5_200_000n * RAO), issuance: u64(7_525_000n * RAO), networks: u16(131) };
    expect((await feed.pollFigures(provider)).ok).toBe(true);
    expect(feed.networkFigures(NOW + 7 * DAY)).toMatchObject({ taoStakingRatioPct: 69.1, taoStakingRatioChange7dPct: -4.23, taoSubnetCount: 131, taoSubnetCountChange30dPct: null });

    // An hour later the node is down: the values from an hour ago are still LIVE (≤ 2 h), past that null.
    clock.set(NOW + 7 * DAY + H);
    chain = { ...chain, stake: null };
    const failed = await feed.pollFigures(provider);
    expect(!failed.ok && failed.error.kind).toBe("malformed");
    expect(feed.networkFigures(NOW + 7 * DAY + H).taoStakingRatioPct).toBe(69.1);
    expect(feed.networkFigures(NOW + 7 * DAY + 2 * H + 1)).toMatchObject({ taoStakingRatioPct: null, taoStakingRatioChange7dPct: null, taoSubnetCount: null });
  });
});
