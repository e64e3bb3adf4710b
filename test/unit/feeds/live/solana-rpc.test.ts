import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { NO_NETWORK_FIGURES } from "../../../../src/domain/signals/network-figures.js";
import { ManualClock } from "../../../../src/runtime/clocks/clock.js";
import { JsonRpcError } from "../../../../src/feeds/live/json-rpc.js";
import { LiveMarketFeed } from "../../../../src/feeds/live/live-market-feed.js";
import { ProviderError } from "../../../../src/feeds/live/provider-error.js";
import { ResilientProvider, type ResilienceOptions } from "../../../../src/feeds/live/resilient-provider.js";
import { SolanaStakeProvider, SolanaTpsProvider } from "../../../../src/feeds/live/solana-rpc.js";
import { FakeProviderServer, type FakeAnswer } from "./fake-provider-server.js";

const NOW = Date.parse("2026-05-01T12:00:00Z");
const LAMPORTS = 1e9;

/** 60-second samples newest first, like the node answers: `newest` of them, then `older`. */
function samples(newest: { n: number; nonVote: number; total: number }, older?: { n: number; nonVote: number; total: number }) {
  const out: { slot: number; numSlots: number; numTransactions: number; numNonVoteTransactions: number; samplePeriodSecs: number }[] = [];
  let slot = 350_000_000;
  for (const block of [newest, older]) {
    for (let i = 0; block && i < block.n; i++) {
      out.push({ slot, numSlots: 150, numTransactions: block.total, numNonVoteTransactions: block.nonVote, samplePeriodSecs: 60 });
      slot -= 150;
    }
  }
  return out;
}

const ok = (result: unknown): FakeAnswer => ({ body: { jsonrpc: "2.0", result, id: 1 } });
const rpcError = (code: number, message: string): FakeAnswer => ({ body: { jsonrpc: "2.0", error: { code, message }, id: 1 } });
const method = (body: string) => (JSON.parse(body) as { method: string }).method;

/** getVoteAccounts as mainnet answers it (abridged to three validators), stake in lamports. */
const voteAccounts = {
  current: [
    { votePubkey: "vote1", nodePubkey: "node1", activatedStake: 250_000_000 * LAMPORTS, epochVoteAccount: true, commission: 5, lastVote: 1, epochCredits: [[800, 100, 50]], rootSlot: 1 },
    { votePubkey: "vote2", nodePubkey: "node2", activatedStake: 150_000_000 * LAMPORTS, epochVoteAccount: true, commission: 0, lastVote: 1, epochCredits: [], rootSlot: 1 },
  ],
  delinquent: [{ votePubkey: "vote3", nodePubkey: "node3", activatedStake: 10_000_000 * LAMPORTS, epochVoteAccount: true, commission: 10, lastVote: 0, epochCredits: [], rootSlot: 0 }],
};
const supply = { context: { apiVersion: "2.2.1", slot: 350_000_000 }, value: { total: 600_000_000 * LAMPORTS, circulating: 520_000_000 * LAMPORTS, nonCirculating: 80_000_000 * LAMPORTS, nonCirculatingAccounts: [] } };

const noRetry: ResilienceOptions = { retry: { attempts: 1, baseDelayMs: 1, maxDelayMs: 1 }, breaker: { failureThreshold: 5, cooldownMs: 60_000 } };

describe("Solana JSON-RPC adapters on a local HTTP server", () => {
  let server: FakeProviderServer;
  const clock = new ManualClock(NOW);
  beforeAll(async () => {
    server = await FakeProviderServer.start();
  });
  afterAll(async () => {
    await server.close();
  });
  beforeEach(() => clock.set(NOW));

  it("TPS: non-vote transactions of the newest hour per second, and their change against the hours before", async () => {
    // Newest hour 60,000 non-vote per minute = 1,000 tx/s; the hour before 72,000 = 1,200 tx/s: −16.67 %.
    server.script(ok(samples({ n: 60, nonVote: 60_000, total: 240_000 }, { n: 60, nonVote: 72_000, total: 270_000 })));
    expect(await new SolanaTpsProvider(clock, server.url).poll()).toEqual([
      { key: "SOL_NETWORK_TPS", value: 1000, observedAt: NOW, source: "solana-tps" },
      { key: "SOL_NETWORK_TPS_CHANGE", value: -16.67, observedAt: NOW, source: "solana-tps" },
    ]);
    expect(JSON.parse(server.bodies[0] ?? "")).toEqual({ jsonrpc: "2.0", id: 1, method: "getRecentPerformanceSamples", params: [720] });
  });

  it("TPS without an hour of earlier samples: the level only, no change", async () => {
    server.script(ok(samples({ n: 60, nonVote: 45_000, total: 200_000 }, { n: 30, nonVote: 1, total: 2 })));
    // The newest hour runs at 750 tx/s; the 30 minutes before it are too short a baseline to compare with.
    expect(await new SolanaTpsProvider(clock, server.url).poll()).toEqual([{ key: "SOL_NETWORK_TPS", value: 750, observedAt: NOW, source: "solana-tps" }]);
  });

  it("staking participation = (current + delinquent activated stake) / total supply × 100", async () => {
    server.route((_path, body) => (method(body) === "getVoteAccounts" ? ok(voteAccounts) : method(body) === "getSupply" ? ok(supply) : { status: 404, body: {} }));
    // (250 + 150 + 10) M SOL / 600 M SOL = 68.333… %
    expect(await new SolanaStakeProvider(clock, server.url).poll()).toEqual([{ key: "SOL_STAKING_PARTICIPATION", value: 68.33, observedAt: NOW, source: "solana-stake" }]);
    const calls = server.bodies.map((b) => JSON.parse(b) as { method: string; params: unknown[] });
    expect(calls.map((c) => c.method).sort()).toEqual(["getSupply", "getVoteAccounts"]);
    expect(calls.find((c) => c.method === "getSupply")?.params).toEqual([{ commitment: "finalized", excludeNonCirculatingAccountsList: true }]);
  });

  it.each([
    ["a sample without numNonVoteTransactions", ok([{ slot: 1, numSlots: 150, numTransactions: 100, samplePeriodSecs: 60 }])],
    ["more non-vote than all transactions", ok(samples({ n: 2, nonVote: 500, total: 100 }))],
    ["a result of the wrong type", ok("samples")],
    ["no samples at all", ok([])],
    ["an envelope with neither result nor error", { body: { jsonrpc: "2.0", id: 1 } }],
    ["a body that is not JSON", { raw: "<html>busy</html>" }],
  ])("TPS: rejects %s as malformed", async (_name, answer) => {
    server.script(answer);
    const err = await new SolanaTpsProvider(clock, server.url).poll().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderError);
    expect((err as ProviderError).kind).toBe("malformed");
    expect((err as ProviderError).retryable).toBe(false);
  });

  it("staking: a malformed vote-account list or a stake above supply passes nothing on", async () => {
    server.route((_p, body) => (method(body) === "getVoteAccounts" ? ok({ current: [{ votePubkey: "v", activatedStake: "lots" }], delinquent: [] }) : ok(supply)));
    expect(await new SolanaStakeProvider(clock, server.url).poll().catch((e: unknown) => (e as ProviderError).kind)).toBe("malformed");
    server.route((_p, body) => (method(body) === "getVoteAccounts" ? ok(voteAccounts) : ok({ ...supply, value: { ...supply.value, total: 100 * LAMPORTS } })));
    expect(await new SolanaStakeProvider(clock, server.url).poll().catch((e: unknown) => (e as ProviderError).kind)).toBe("malformed");
  });

  it("turns a JSON-RPC error object into a JsonRpcError: node trouble is retryable, a bad call is not", async () => {
    server.script(rpcError(-32005, "Node is behind by 42 slots"));
    const behind = await new SolanaTpsProvider(clock, server.url).poll().catch((e: unknown) => e);
    expect(behind).toBeInstanceOf(JsonRpcError);
    expect(behind).toMatchObject({ kind: "rpc", code: -32005, retryable: true });
    server.script(rpcError(-32601, "Method not found"));
    expect(await new SolanaTpsProvider(clock, server.url).poll().catch((e: unknown) => e)).toMatchObject({ kind: "rpc", code: -32601, retryable: false });
    server.route((_p, body) => (method(body) === "getSupply" ? rpcError(-32603, "Internal error") : ok(voteAccounts)));
    expect(await new SolanaStakeProvider(clock, server.url).poll().catch((e: unknown) => e)).toMatchObject({ kind: "rpc", code: -32603, retryable: true });
  });

  it("a rate limit sent as JSON-RPC error 429 counts as rate_limited", async () => {
    server.script(rpcError(429, "Too many requests for a specific RPC call"));
    expect(await new SolanaTpsProvider(clock, server.url).poll().catch((e: unknown) => e)).toMatchObject({ kind: "rate_limited", retryable: true });
  });

  it("HTTP 429 with Retry-After, and 5xx, are transient provider errors", async () => {
    server.script({ status: 429, body: { jsonrpc: "2.0", error: { code: 429, message: "Too many requests" }, id: 1 }, headers: { "retry-after": "10" } });
    expect(await new SolanaTpsProvider(clock, server.url).poll().catch((e: unknown) => e)).toMatchObject({ kind: "rate_limited", retryAfterMs: 10_000, retryable: true });
    server.script({ status: 502, raw: "Bad Gateway" });
    expect(await new SolanaTpsProvider(clock, server.url).poll().catch((e: unknown) => e)).toMatchObject({ kind: "http", status: 502, retryable: true });
    server.route(() => ({ status: 503, body: {} }));
    expect(await new SolanaStakeProvider(clock, server.url).poll().catch((e: unknown) => e)).toMatchObject({ kind: "http", status: 503 });
  });

  it("times out a node that does not answer", async () => {
    server.script({ delayMs: 1_000, ...ok(samples({ n: 60, nonVote: 60_000, total: 240_000 })) });
    expect(await new SolanaTpsProvider(clock, server.url, 100).poll().catch((e: unknown) => e)).toMatchObject({ kind: "timeout", retryable: true });
  });

  it("behind the resilient wrapper: a node error is retried, and a failed poll leaves the feed's figures null", async () => {
    const feed = new LiveMarketFeed(clock, { id: "none", fetchHourly: async () => [] }, []);
    const sleep = async () => undefined;
    server.script(rpcError(-32005, "Node is unhealthy"), ok(samples({ n: 60, nonVote: 60_000, total: 240_000 }, { n: 60, nonVote: 60_000, total: 240_000 })));
    const retrying = new ResilientProvider(new SolanaTpsProvider(clock, server.url), clock, { ...noRetry, retry: { attempts: 2, baseDelayMs: 1, maxDelayMs: 1, sleep } });
    expect((await feed.pollFigures(retrying)).ok).toBe(true);
    expect(server.bodies).toHaveLength(2);
    expect(feed.networkFigures(NOW)).toMatchObject({ solNetworkTps: 1000, solNetworkTpsChangePct: 0 });

    const fresh = new LiveMarketFeed(clock, { id: "none", fetchHourly: async () => [] }, []);
    server.script(ok([{ slot: 1, numSlots: 1, numTransactions: "many", numNonVoteTransactions: 1, samplePeriodSecs: 60 }]));
    const r = await fresh.pollFigures(new ResilientProvider(new SolanaTpsProvider(clock, server.url), clock, noRetry));
    expect(!r.ok && r.error.kind).toBe("malformed");
    expect(fresh.networkFigures(NOW)).toEqual(NO_NETWORK_FIGURES);
  });
});
