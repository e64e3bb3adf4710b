import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStore } from "../../../src/store/open-store.js";
import { createKey, startService, type RunningService } from "../../support/service.js";
import { runCli } from "../../support/cli.js";
import { waitFor } from "../../support/wait-for.js";
import { closedTrade } from "../../support/ghost-trades.js";
import { replayStartBeforeEnd } from "../../support/replay-feed.js";
import { ReplayMarketClock } from "../../../src/runtime/clocks/market-clock.js";
import { GhostTraderActor } from "../../../src/actors/ghost-trader-actor.js";
import { ASSETS } from "../../../src/domain/signals/signal-keys.js";
import { ghostPerformanceSchema } from "../../../src/http/schemas/ghost-performance.js";
import { btcTrackRecordSchema, ghostStatsSchema, regimeStatsSchema, solTrackRecordSchema } from "../../../src/http/schemas/ghost.js";

const H = 3_600_000;

/**
 * `ghost restart` (DECISIONS 7) on the store of a running service: the restarted asset's earlier
 * trades stay stored but stop counting, other assets keep theirs, and the sprint number moves on.
 */
describe("ghost restart CLI", () => {
  let svc: RunningService;
  let storeUrl: string;

  beforeAll(async () => {
    // Ten market hours per second, so trades entered after the launch mark have closed by now;
    // started shortly before the end of the data, so the replay clock stops there a few seconds
    // later and the service idles while the test reads it.
    svc = await startService({ REPLAY_SPEED: "36000", REPLAY_START: await replayStartBeforeEnd(36) });
    storeUrl = svc.service.deps.config.STORE_URL;
    const ledger = svc.service.deps.store.ghostLedger;
    const launch = (await ledger.sprints())[0]?.at ?? 0;
    await ledger.saveClosed([closedTrade("BTC", launch, 12.5), closedTrade("BTC", launch + 6 * H, -4), closedTrade("SOL", launch + 2 * H, 3)]);
    await waitFor(async () => svc.service.deps.marketClock.now() > launch + 12 * H, 10_000, "the trades to close in market time");
    const now = svc.service.deps.marketClock.now();
    // The bar the running trader has applied, not one ahead of it: a status ahead of the
    // trader's state is what a failed turn leaves, and its next turn would take the trades
    // seeded above, closed after its bar, for that turn's and delete them.
    const applied = (await ledger.snapshot("BTC"))?.barT ?? null;
    await ledger.saveSnapshot({
      asset: "BTC",
      at: now,
      barT: applied,
      status: "WAITING",
      position: null,
      gates: null,
      liquidity: { status: "UNKNOWN", depthUsd: null, live: false },
      price: 100,
      rsi1h: 50,
      ema200: 99,
      regime: null,
    });
  }, 60_000);

  afterAll(async () => {
    await svc.stop();
  });

  it("rejects a missing reason or an unknown asset with usage and exit code 2", async () => {
    const noReason = await runCli(["ghost", "restart", "--asset", "BTC"], { STORE_URL: storeUrl });
    expect(noReason.code).toBe(2);
    expect(noReason.stderr).toContain("usage: ghost restart");
    const badAsset = await runCli(["ghost", "restart", "--asset", "DOGE", "--reason", "x"], { STORE_URL: storeUrl });
    expect(badAsset.code).toBe(2);
  }, 60_000);

  it("refuses, marking nothing, on a replay store no trader has run on (the wall clock would hide every replay trade)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ghost-restart-"));
    try {
      const fresh = `sqlite:${join(dir, "fresh.sqlite")}`;
      const out = await runCli(["ghost", "restart", "--asset", "all", "--reason", "too early"], { STORE_URL: fresh, MARKET_FEED: "replay" });
      expect(out.code).toBe(1);
      expect(out.stderr).toContain("no Ghost Trader has run on this store yet");
      const signoff = await runCli(["ghost", "signoff", "--asset", "TAO", "--by", "ops"], { STORE_URL: fresh, MARKET_FEED: "replay" });
      expect(signoff.code).toBe(1);
      const store = await openStore(fresh);
      try {
        expect(await store.ghostLedger.sprints()).toEqual([]);
      } finally {
        await store.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it("starts a new BTC sprint: BTC's earlier trades stop counting in its track record, SOL's track record keeps its own", async () => {
    const out = await runCli(["ghost", "restart", "--asset", "BTC", "--reason", "feed outage"], { STORE_URL: storeUrl });
    expect(out.code, out.stderr).toBe(0);
    const printed = JSON.parse(out.stdout) as { restarted: string; sprint: number; since: string };
    expect(printed).toMatchObject({ restarted: "BTC", sprint: 2 });

    const btc = btcTrackRecordSchema.parse(await (await fetch(`${svc.url}/v1/btc/track-record`)).json());
    expect(btc.trades).toEqual([]);
    expect(btc.stats.totalTrades).toBe(0);
    const sol = solTrackRecordSchema.parse(await (await fetch(`${svc.url}/v1/sol/track-record`)).json());
    expect(sol.trades).toHaveLength(1);
    const stats = ghostStatsSchema.parse(await (await fetch(`${svc.url}/v1/ghost/stats`)).json());
    expect(stats.sprint).toBe(2);
    expect(stats.since).toBe(printed.since.slice(0, 10));
    // DECISIONS 7: the all-asset stats use one cutoff, the latest restart among the assets they
    // cover, so SOL's trade entered before BTC's restart no longer counts there.
    expect(stats.validated_trades).toBe(0);
    expect(stats.total_pnl).toBe(0);
    expect(stats.win_rate).toBe(0);
    // The restart moved no row: the ledger's checks all still hold (was 9/10 before issue 16).
    expect(stats.tests_passing).toBe(10);
    const key = await createKey(svc, "free");
    const regime = regimeStatsSchema.parse(await (await fetch(`${svc.url}/v1/regime/stats`, { headers: { "X-API-Key": key } })).json());
    expect(regime.since).toBe(stats.since);
    expect(regime.total_trades).toBe(0);
    // BTC's new sprint has no closed trade: its performance says so plainly (standing aside,
    // unless the running trader opened a position since the restart).
    const perf = ghostPerformanceSchema.parse(await (await fetch(`${svc.url}/v1/ghost/performance?asset=BTC`)).json());
    expect(perf.trades).toBe(0);
    expect(perf.note).toBe(perf.standingAside ? "standing aside: no entry passed its gates" : "no closed trade yet: one position is open");
    expect(perf.sprintSince).toBe(printed.since);
    // The restarted trades are still in the ledger, only no longer counted.
    expect(await svc.service.deps.store.ghostLedger.closed("BTC")).toHaveLength(2);
  }, 60_000);

  it("answers a retried restart, with market time not moved since, as already made: one mark, the same sprint", async () => {
    const clock = svc.service.deps.marketClock;
    if (!(clock instanceof ReplayMarketClock)) throw new Error("a replay service");
    // The replay stops at the end of its data: from then on market time stands still.
    await waitFor(async () => clock.now() >= clock.end, 20_000, "the replay to reach the end of its data");
    // The CLI's market time is the traders' newest status (cli/commands/ghost.ts), and at this
    // speed their turns trail the clock: one that ran between the two commands below moved it (a
    // CI run failed so). Each trader applies what is left now, after its queued turns; with the
    // clock stopped, none has a bar left to apply afterwards, so market time stands still.
    for (const asset of ASSETS) await svc.service.actors.host.proxy(GhostTraderActor, asset).step();
    const first = await runCli(["ghost", "restart", "--asset", "SOL", "--reason", "bad SOL data"], { STORE_URL: storeUrl });
    expect(first.code, first.stderr).toBe(0);
    const made = JSON.parse(first.stdout) as { sprint: number; since: string };
    const marks = (await svc.service.deps.store.ghostLedger.sprints()).length;
    const retry = await runCli(["ghost", "restart", "--asset", "SOL", "--reason", "bad SOL data"], { STORE_URL: storeUrl });
    expect(retry.code, retry.stderr).toBe(0);
    expect(JSON.parse(retry.stdout)).toEqual({ restarted: "SOL", since: made.since, sprint: made.sprint, reason: "bad SOL data", already: true });
    expect(await svc.service.deps.store.ghostLedger.sprints()).toHaveLength(marks);
    // Another asset's restart in between does not turn a late retry into a second SOL mark.
    const eth = await runCli(["ghost", "restart", "--asset", "ETH", "--reason", "bad ETH data"], { STORE_URL: storeUrl });
    expect(eth.code, eth.stderr).toBe(0);
    const late = await runCli(["ghost", "restart", "--asset", "SOL", "--reason", "bad SOL data"], { STORE_URL: storeUrl });
    expect(late.code, late.stderr).toBe(0);
    expect(JSON.parse(late.stdout)).toEqual({ restarted: "SOL", since: made.since, sprint: made.sprint, reason: "bad SOL data", already: true });
    expect((await svc.service.deps.store.ghostLedger.sprints()).map((m) => m.scope).slice(-2)).toEqual(["SOL", "ETH"]);
    expect(await svc.service.deps.store.ghostLedger.sprints()).toHaveLength(marks + 1);
    // A name with an escape sequence would be shown again in the ledger: refused, nothing marked.
    const odd = await runCli(["ghost", "restart", "--asset", "SOL", "--reason", "\u001b[2Jwiped"], { STORE_URL: storeUrl });
    expect(odd.code).toBe(2);
    expect(odd.stderr).toContain("control or bidirectional-override characters");
    expect(await svc.service.deps.store.ghostLedger.sprints()).toHaveLength(marks + 1);
  }, 60_000);
});
