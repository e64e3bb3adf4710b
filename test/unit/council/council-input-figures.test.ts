import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deliberate, type DeliberationOutcome } from "../../../src/domain/council/deliberate.js";
import type { CouncilSession } from "../../../src/domain/council/council-types.js";
import { ManualClock } from "../../../src/runtime/clocks/clock.js";
import { CoinGeckoAiSectorProvider } from "../../../src/feeds/live/coingecko-ai-sector.js";
import { LiveMarketFeed } from "../../../src/feeds/live/live-market-feed.js";
import { ResilientProvider, type ResilienceOptions } from "../../../src/feeds/live/resilient-provider.js";
import { SolanaStakeProvider, SolanaTpsProvider } from "../../../src/feeds/live/solana-rpc.js";
import { SubtensorProvider, TOTAL_ISSUANCE_KEY, TOTAL_NETWORKS_KEY, TOTAL_STAKE_KEY } from "../../../src/feeds/live/subtensor-rpc.js";
import type { MarketFeed } from "../../../src/feeds/market-feed.js";
import { councilInputAt } from "../../../src/application/judiciary-inputs.js";
import { sharedReplayFeed } from "../../support/replay-feed.js";
import { FakeProviderServer, type FakeAnswer } from "../feeds/live/fake-provider-server.js";

const MIN = 60_000;
const H = 60 * MIN;
const DAY = 24 * H;
const T0 = Date.parse("2026-04-01T00:00:00Z");
const LAMPORTS = 1e9;
const noRetry: ResilienceOptions = { retry: { attempts: 1, baseDelayMs: 1, maxDelayMs: 1 }, breaker: { failureThreshold: 1_000, cooldownMs: 1 } };
let ids = 0;
const newId = () => `s-${++ids}`;

function session(o: DeliberationOutcome): CouncilSession {
  if (o.kind !== "session") throw new Error("expected a session");
  return o.session;
}

const rpc = (result: unknown): FakeAnswer => ({ body: { jsonrpc: "2.0", result, id: 1 } });
/** 120 one-minute samples: the newest hour at 600 non-vote tx/s, the hour before at 1,200 (−50 %). */
const samples = Array.from({ length: 120 }, (_, i) => ({
  slot: 350_000_000 - i * 150,
  numSlots: 150,
  numTransactions: 250_000,
  numNonVoteTransactions: i < 60 ? 36_000 : 72_000,
  samplePeriodSecs: 60,
}));
const votes = { current: [{ votePubkey: "a", activatedStake: 400_000_000 * LAMPORTS }], delinquent: [{ votePubkey: "b", activatedStake: 10_000_000 * LAMPORTS }] };
const supply = { context: { slot: 350_000_000 }, value: { total: 600_000_000 * LAMPORTS, circulating: 1, nonCirculating: 1 } };
/** The chain's totals as state_getStorage sends them: SCALE, little-endian, 0x-hex. */
const scale = (v: bigint, bytes: number) => `0x${Array.from({ length: bytes }, (_, i) => ((v >> BigInt(8 * i)) & 0xffn).toString(16).padStart(2, "0")).join("")}`;
const RAO = 1_000_000_000n;
const aiCategory = (change: number, at: number) => [{ id: "artificial-intelligence", name: "Artificial Intelligence (AI)", market_cap: 2.8e10, market_cap_change_24h: change, updated_at: new Date(at).toISOString() }];

describe("councilInputAt reads the per-asset network and sector figures", () => {
  let server: FakeProviderServer;
  let ai: { change: number; at: number } | null = null;
  /** Bittensor totals in whole TAO, and the subnet count. */
  let tao = { stake: 5_500_000n, issuance: 7_500_000n, subnets: 120 };
  const clock = new ManualClock(T0);

  beforeAll(async () => {
    server = await FakeProviderServer.start();
    server.route((path, body) => {
      if (path === "/api/v3/coins/categories") return ai ? { body: aiCategory(ai.change, ai.at) } : { status: 503, body: {} };
      const call = body ? (JSON.parse(body) as { method: string; params: unknown[] }) : { method: "", params: [] };
      const method = call.method;
      if (method === "state_getStorage") {
        const key = call.params[0];
        if (key === TOTAL_STAKE_KEY) return rpc(scale(tao.stake * RAO, 8));
        if (key === TOTAL_ISSUANCE_KEY) return rpc(scale(tao.issuance * RAO, 8));
        if (key === TOTAL_NETWORKS_KEY) return rpc(scale(BigInt(tao.subnets), 2));
        return rpc(null);
      }
      if (method === "getRecentPerformanceSamples") return rpc(samples);
      if (method === "getVoteAccounts") return rpc(votes);
      if (method === "getSupply") return rpc(supply);
      return { status: 404, body: {} };
    });
  });
  afterAll(async () => {
    await server.close();
  });

  const liveFeed = () => new LiveMarketFeed(clock, { id: "none", fetchHourly: async () => [] }, []);
  const wrap = <T>(p: { id: string; poll(): Promise<readonly T[]> }) => new ResilientProvider(p, clock, noRetry);

  /** One AI-sector observation per hour, through the real adapter over HTTP, as the poller would. */
  async function observeHourly(feed: LiveMarketFeed, values: readonly number[], from: number): Promise<void> {
    const provider = wrap(new CoinGeckoAiSectorProvider(server.url));
    for (let k = 0; k < values.length; k++) {
      ai = { change: values[k] as number, at: from + k * H };
      // Observed when stamped: the feed drops stamps past its clock (a provider's future stamp).
      clock.set(ai.at);
      expect((await feed.pollFigures(provider)).ok).toBe(true);
    }
  }

  it("live: fills the SOL snapshot and the NETWORK_SENTINEL inputs, which then vote on them", async () => {
    clock.set(T0);
    const feed = liveFeed();
    expect((await feed.pollFigures(wrap(new SolanaTpsProvider(clock, server.url)))).ok).toBe(true);
    expect((await feed.pollFigures(wrap(new SolanaStakeProvider(clock, server.url)))).ok).toBe(true);

    const input = councilInputAt(feed, "SOL", T0 + 10 * MIN, null);
    expect(input.snapshotSignals).toMatchObject({ sol_network_tps: 600, sol_staking_participation: 68.33 });
    expect(input.readings.filter((r) => ["NETWORK_TPS", "NETWORK_TPS_TREND", "STAKING_PARTICIPATION"].includes(r.key))).toEqual([
      { key: "NETWORK_TPS", value: 600, status: "LIVE" },
      { key: "NETWORK_TPS_TREND", value: -50, status: "LIVE" },
      { key: "STAKING_PARTICIPATION", value: 68.33, status: "LIVE" },
    ]);
    const s = session(await deliberate(input, { advisor: null, newId }));
    // −50 % throughput: c = −1; staking 68.33 %: no lean → score −50 → AVOID (a rule vote, never a veto).
    expect(s.votes.find((v) => v.agent === "NETWORK_SENTINEL")).toMatchObject({ source: "rule", ruling: "AVOID", confidence: 0.47 });
    expect(s.vetoedBy).toEqual([]);

    // Three hours on, the hourly TPS figures are past 2 × refresh and unused; stake (daily) still is.
    const later = councilInputAt(feed, "SOL", T0 + 3 * H, null);
    expect(later.snapshotSignals).toMatchObject({ sol_network_tps: null, sol_staking_participation: 68.33 });
  });

  it("live: AI_NARRATIVE votes on the AI sector at once, but CENTRALIZED_AI_OVERHANG waits for 14 days of history", async () => {
    const feed = liveFeed();
    // 13 days of an ordinary sector, then a −9 % day: the agent sees it, the flag has no percentile yet.
    await observeHourly(feed, [...Array.from({ length: 13 * 24 }, (_, k) => [-4, -2, 0, 2, 4][k % 5] as number), -9], T0);
    const at = T0 + 13 * DAY + 10 * MIN;
    const input = councilInputAt(feed, "TAO", at, null);
    expect(input.readings.find((r) => r.key === "AI_SENTIMENT")).toEqual({ key: "AI_SENTIMENT", value: -9, status: "LIVE" });
    expect(input.tao?.aiSentiment).toBeNull();
    const s = session(await deliberate(input, { advisor: null, newId }));
    expect(s.votes.find((v) => v.agent === "AI_NARRATIVE")).toMatchObject({ source: "rule", ruling: "STRONG_SELL" });
    expect(s.riskFlags).not.toContain("CENTRALIZED_AI_OVERHANG");
  });

  it("live: CENTRALIZED_AI_OVERHANG is raised when the sector falls below its own 20th percentile", async () => {
    const feed = liveFeed();
    // 15 days cycling −4, −2, 0, 2, 4 % (72 hours of each), then the current hour.
    await observeHourly(feed, Array.from({ length: 15 * 24 }, (_, k) => [-4, -2, 0, 2, 4][k % 5] as number), T0);
    const now = T0 + 15 * DAY;
    const provider = wrap(new CoinGeckoAiSectorProvider(server.url));

    // −5: with it the 361 values sort −5, 72 × −4, …; rank 0.2 × 360 = 72 → 20th percentile −4.
    ai = { change: -5, at: now };
    clock.set(now);
    await feed.pollFigures(provider);
    const low = councilInputAt(feed, "TAO", now + 5 * MIN, null);
    expect(low.tao?.aiSentiment).toEqual({ value: -5, percentile20: -4 });
    expect(session(await deliberate(low, { advisor: null, newId })).riskFlags).toContain("CENTRALIZED_AI_OVERHANG");

    // −1 a few minutes later replaces the hour's value: 72 × −4, 72 × −2, −1, … → percentile −2; −1 is above it.
    ai = { change: -1, at: now + 20 * MIN };
    clock.set(now + 20 * MIN);
    await feed.pollFigures(provider);
    const calm = councilInputAt(feed, "TAO", now + 25 * MIN, null);
    expect(calm.tao?.aiSentiment).toEqual({ value: -1, percentile20: -2 });
    expect(session(await deliberate(calm, { advisor: null, newId })).riskFlags).not.toContain("CENTRALIZED_AI_OVERHANG");

    // The source goes quiet: past 2 h the value is unused, and the flag is never raised without it.
    const quiet = councilInputAt(feed, "TAO", now + 20 * MIN + 2 * H + 1, null);
    expect(quiet.tao?.aiSentiment).toBeNull();
    const q = session(await deliberate(quiet, { advisor: null, newId }));
    expect(q.votes.find((v) => v.agent === "AI_NARRATIVE")?.source).toBe("abstain");
    expect(q.riskFlags).not.toContain("CENTRALIZED_AI_OVERHANG");
  });

  it("live with the AI source down: AI_NARRATIVE abstains and the flag is not raised", async () => {
    ai = null;
    const feed = liveFeed();
    const r = await feed.pollFigures(wrap(new CoinGeckoAiSectorProvider(server.url)));
    expect(!r.ok && r.error.kind).toBe("http");
    const input = councilInputAt(feed, "TAO", T0, null);
    expect(input.tao?.aiSentiment).toBeNull();
    const s = session(await deliberate(input, { advisor: null, newId }));
    expect(s.votes.find((v) => v.agent === "AI_NARRATIVE")?.source).toBe("abstain");
    expect(s.riskFlags).not.toContain("CENTRALIZED_AI_OVERHANG");
  });

  it("live: SUBNET_ORACLE votes on the Bittensor levels at once and on their trends once the history is long enough", { timeout: 30_000 }, async () => {
    clock.set(T0);
    const feed = liveFeed();
    const subtensor = wrap(new SubtensorProvider(clock, server.url));
    tao = { stake: 5_500_000n, issuance: 7_500_000n, subnets: 120 };
    expect((await feed.pollFigures(subtensor)).ok).toBe(true);
    const first = councilInputAt(feed, "TAO", T0 + 10 * MIN, null);
    const subnetInputs = (i: typeof first) => i.readings.filter((r) => r.key.startsWith("TAO_"));
    // 5.5 M / 7.5 M TAO = 73.33 %; no week or month of history yet.
    expect(subnetInputs(first)).toEqual([
      { key: "TAO_STAKING_RATIO", value: 73.33, status: "LIVE" },
      { key: "TAO_STAKING_RATIO_TREND", value: null, status: "DEAD" },
      { key: "TAO_SUBNET_COUNT", value: 120, status: "LIVE" },
      { key: "TAO_SUBNET_COUNT_TREND", value: null, status: "DEAD" },
    ]);
    // SPEC fixes the TAO snapshot's keys: the figures reach the agents, not the snapshot.
    expect(Object.keys(first.snapshotSignals).sort()).toEqual(["ema_200", "rsi_1h", "tao_price"]);
    expect(session(await deliberate(first, { advisor: null, newId })).votes.find((v) => v.agent === "SUBNET_ORACLE")).toMatchObject({ source: "rule", ruling: "HOLD" });

    // Hourly polls for 30 days while 30,000 TAO a day leaves stake, issuance grows 3,600 a day and
    // a subnet registers every 5 days.
    for (let h = 1; h <= 30 * 24; h++) {
      clock.set(T0 + h * H);
      tao = { stake: 5_500_000n - BigInt(Math.floor((h * 30_000) / 24)), issuance: 7_500_000n + BigInt(Math.floor((h * 3_600) / 24)), subnets: 120 + Math.floor(h / 120) };
      expect((await feed.pollFigures(subtensor)).ok).toBe(true);
    }
    const at = T0 + 30 * DAY + 10 * MIN;
    const input = councilInputAt(feed, "TAO", at, null);
    // Now: 4,600,000 / 7,608,000 = 60.46 %; 23 days in: 4,810,000 / 7,582,800 = 63.43 % → −2.97 pp.
    // Subnets 126 against 120 thirty days before: +5 %.
    expect(subnetInputs(input)).toEqual([
      { key: "TAO_STAKING_RATIO", value: 60.46, status: "LIVE" },
      { key: "TAO_STAKING_RATIO_TREND", value: -2.97, status: "LIVE" },
      { key: "TAO_SUBNET_COUNT", value: 126, status: "LIVE" },
      { key: "TAO_SUBNET_COUNT_TREND", value: 5, status: "LIVE" },
    ]);
    // Staking −2.97 pp: c = −1; subnets +5 %: c = +0.25 → score −37.5 → SELL.
    const oracle = session(await deliberate(input, { advisor: null, newId })).votes.find((v) => v.agent === "SUBNET_ORACLE");
    expect(oracle).toMatchObject({ source: "rule", ruling: "SELL", missing: [] });
  });

  describe("replay", () => {
    let replay: MarketFeed;
    beforeAll(async () => {
      replay = await sharedReplayFeed();
    }, 60_000);

    it("leaves the SOL figures and the AI sector null: NETWORK_SENTINEL and AI_NARRATIVE abstain, no overhang flag", async () => {
      const at = Date.parse("2026-03-30T12:00:00Z");
      const sol = councilInputAt(replay, "SOL", at, null);
      expect(sol.snapshotSignals).toMatchObject({ sol_network_tps: null, sol_staking_participation: null });
      expect(sol.readings.find((r) => r.key === "NETWORK_TPS")).toEqual({ key: "NETWORK_TPS", value: null, status: "DEAD" });
      const solSession = session(await deliberate(sol, { advisor: null, newId }));
      expect(solSession.votes.find((v) => v.agent === "NETWORK_SENTINEL")?.source).toBe("abstain");

      const tao = councilInputAt(replay, "TAO", at, null);
      expect(tao.tao?.aiSentiment).toBeNull();
      const taoSession = session(await deliberate(tao, { advisor: null, newId }));
      expect(taoSession.votes.find((v) => v.agent === "AI_NARRATIVE")?.source).toBe("abstain");
      expect(taoSession.riskFlags).not.toContain("CENTRALIZED_AI_OVERHANG");
    });

    it("leaves the Bittensor figures null: SUBNET_ORACLE abstains, naming what is missing", async () => {
      const at = Date.parse("2026-03-30T12:00:00Z");
      const tao = councilInputAt(replay, "TAO", at, null);
      for (const key of ["TAO_STAKING_RATIO", "TAO_STAKING_RATIO_TREND", "TAO_SUBNET_COUNT", "TAO_SUBNET_COUNT_TREND"]) {
        expect(tao.readings.find((r) => r.key === key)).toEqual({ key, value: null, status: "DEAD" });
      }
      const oracle = session(await deliberate(tao, { advisor: null, newId })).votes.find((v) => v.agent === "SUBNET_ORACLE");
      expect(oracle).toMatchObject({ source: "abstain", ruling: "HOLD" });
      expect(oracle?.thesis).toContain("TAO_STAKING_RATIO");
    });
  });
});
