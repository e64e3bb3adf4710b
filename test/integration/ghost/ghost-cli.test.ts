import { existsSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { startService, freshStoreUrl, type RunningService } from "../../support/service.js";
import { runCli } from "../../support/cli.js";
import { waitFor } from "../../support/wait-for.js";
import { closedTrade } from "../../support/ghost-trades.js";
import { replayStartBeforeEnd } from "../../support/replay-feed.js";
import { taoStatusSchema } from "../../../src/http/schemas/ghost.js";

const H = 3_600_000;

/**
 * `ghost signoff --asset TAO --by <name>` (SPEC "TAO paperMode": 10 validated paper closes plus an
 * explicit sign-off) run as an operator runs it, against the store of a running service.
 */
describe("ghost signoff CLI", () => {
  let svc: RunningService;
  let storeUrl: string;
  let launch: number;

  beforeAll(async () => {
    // Ten market hours per second, started shortly before the end of the data: the replay clock
    // stops there within seconds and the service idles while the CLI works on its store.
    svc = await startService({ REPLAY_SPEED: "36000", REPLAY_START: await replayStartBeforeEnd(72) });
    storeUrl = svc.service.deps.config.STORE_URL;
    const ledger = svc.service.deps.store.ghostLedger;
    launch = (await ledger.sprints())[0]?.at ?? 0;
    // Nine closed validated TAO paper trades: one short of the target. Six hours apart, as one
    // trader's 5-hour trades must be: overlapping trades of one asset fail a ledger check.
    await ledger.saveClosed(Array.from({ length: 9 }, (_, i) => closedTrade("TAO", launch + i * 6 * H, i % 2 === 0 ? 5 : -2)));
    // The CLI takes market time from the traders' newest status (cli/commands/ghost.ts), which
    // trails the service's clock at this speed while a trader's turn waits for its close's
    // verdict and session: wait for that, not for the clock.
    const tradersAt = async (): Promise<number> => Math.max(0, ...(await ledger.snapshotsChecked()).snapshots.map((snap) => snap.at));
    await waitFor(async () => (await tradersAt()) > launch + 60 * H, 30_000, "the traders' market time to pass the trades' closes");
  }, 60_000);

  afterAll(async () => {
    await svc.stop();
  });

  it("rejects another asset or a missing name with usage and exit code 2", async () => {
    const btc = await runCli(["ghost", "signoff", "--asset", "BTC", "--by", "alice"], { STORE_URL: storeUrl });
    expect(btc.code).toBe(2);
    expect(btc.stderr).toContain("ghost signoff --asset TAO --by <name>");
    const noName = await runCli(["ghost", "signoff", "--asset", "TAO"], { STORE_URL: storeUrl });
    expect(noName.code).toBe(2);
  }, 60_000);

  it("refuses with 9 of 10 closes, refuses while a ledger check fails, then ends paper mode", async () => {
    const ledger = svc.service.deps.store.ghostLedger;
    const nine = await runCli(["ghost", "signoff", "--asset", "TAO", "--by", "alice"], { STORE_URL: storeUrl });
    expect(nine.code, `${nine.stdout}\n${nine.stderr}`).toBe(1);
    expect(nine.stderr).toContain("only 9 of 10 validated TAO paper trades");

    // The tenth close is stored corrupted: a loss recorded as a WIN.
    const tenth = closedTrade("TAO", launch + 9 * 6 * H, -3);
    await ledger.saveClosed([{ ...tenth, result: "WIN" }]);
    const corrupt = await runCli(["ghost", "signoff", "--asset", "TAO", "--by", "alice"], { STORE_URL: storeUrl });
    expect(corrupt.code).toBe(1);
    expect(corrupt.stderr).toContain("ledger integrity");
    expect(corrupt.stderr).toContain("result is WIN exactly when P&L > 0");
    expect(corrupt.stderr).not.toContain("validated TAO paper trades have closed");

    await ledger.saveClosed([tenth]);
    const ok = await runCli(["ghost", "signoff", "--asset", "TAO", "--by", "alice"], { STORE_URL: storeUrl });
    expect(ok.code, ok.stderr).toBe(0);
    expect(JSON.parse(ok.stdout)).toMatchObject({ signedOff: "TAO", by: "alice", paperTradesValidated: 10, paperMode: false });

    const status = taoStatusSchema.parse(await (await fetch(`${svc.url}/v1/tao/status`)).json());
    expect(status.paperTradesValidated).toBe(10);
    expect(status.paperMode).toBe(false);

    // Signing off again changes nothing and says so.
    const again = await runCli(["ghost", "signoff", "--asset", "TAO", "--by", "bob"], { STORE_URL: storeUrl });
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ by: "alice", already: true });

    // A track-record restart voids the sign-off: the new period needs its own 10 closes.
    expect((await runCli(["ghost", "restart", "--asset", "TAO", "--reason", "new venue"], { STORE_URL: storeUrl })).code).toBe(0);
    const afterRestart = await runCli(["ghost", "signoff", "--asset", "TAO", "--by", "alice"], { STORE_URL: storeUrl });
    expect(afterRestart.code).toBe(1);
    expect(afterRestart.stderr).toContain("only 0 of 10");
  }, 90_000);
});

const band = z.object({ mean: z.number(), p5: z.number(), p95: z.number() });
const rowSchema = z.object({
  asset: z.enum(["BTC", "ETH", "SOL", "TAO"]),
  span: z.enum(["whole", "to 2022-12-31", "from 2023-01-01"]),
  bars: z.number().int(),
  from: z.string(),
  to: z.string(),
  trades: z.number().int(),
  winRatePct: z.number(),
  profitFactor: z.number().nullable(),
  expectancyUsd: z.number(),
  exposurePct: z.number(),
  benchmarks: z.object({
    buyAndHold: z.object({ returnPct: z.number(), scaledReturnPct: z.number() }),
    randomEntry: z.object({ everyEntry: z.object({ winRatePct: z.number() }), matched: z.object({ expectancyUsd: band }).nullable() }),
  }),
});
const backtestJsonSchema = z.object({ from: z.string(), to: z.string(), synthetic: z.literal(true), assets: z.array(rowSchema) });

describe("backtest CLI", () => {
  it("prints every asset's stats over a short window as JSON and never touches the store", async () => {
    const storeUrl = freshStoreUrl("sqlite", "backtestcli");
    const out = await runCli(["backtest", "--asset", "all", "--from", "2025-08-01T00:00:00Z", "--to", "2025-09-01T00:00:00Z", "--json"], { STORE_URL: storeUrl });
    expect(out.code, out.stderr).toBe(0);
    const body = backtestJsonSchema.parse(JSON.parse(out.stdout));
    expect(body.from).toBe("2025-08-01T00:00:00.000Z");
    // Entirely inside the held-out span: the whole range and "from 2023-01-01", the same figures.
    expect(body.assets.map((r) => `${r.asset} ${r.span}`)).toEqual(
      ["BTC", "ETH", "SOL", "TAO"].flatMap((a) => [`${a} whole`, `${a} from 2023-01-01`]),
    );
    for (const r of body.assets) {
      expect(r.bars).toBe(31 * 24);
      expect(r.benchmarks.randomEntry.matched === null).toBe(r.trades === 0);
    }
    // The SQLite file is never even created: a backtest has no way to reach the track record.
    expect(existsSync(storeUrl.slice("sqlite:".length))).toBe(false);
  }, 300_000);

  it("reports the two spans of the evaluation protocol apart when a range crosses 2023-01-01", async () => {
    const out = await runCli(["backtest", "--asset", "BTC", "--from", "2022-12-25T00:00:00Z", "--to", "2023-01-08T00:00:00Z", "--json"], {});
    expect(out.code, out.stderr).toBe(0);
    const rows = backtestJsonSchema.parse(JSON.parse(out.stdout)).assets;
    expect(rows.map((r) => [r.span, r.from, r.to])).toEqual([
      ["whole", "2022-12-25T00:00:00.000Z", "2023-01-08T00:00:00.000Z"],
      ["to 2022-12-31", "2022-12-25T00:00:00.000Z", "2023-01-01T00:00:00.000Z"],
      ["from 2023-01-01", "2023-01-01T00:00:00.000Z", "2023-01-08T00:00:00.000Z"],
    ]);
    const [whole, before, after] = rows;
    expect(whole!.trades).toBe(before!.trades + after!.trades);
  }, 300_000);

  it("prints a readable table for one asset, and rejects a bad asset or date with usage", async () => {
    const out = await runCli(["backtest", "--asset", "sol", "--from", "2025-08-01T00:00:00Z", "--to", "2025-08-08T00:00:00Z"], {});
    expect(out.code, out.stderr).toBe(0);
    const lines = out.stdout.trim().split("\n");
    expect(lines[0]).toContain("nothing stored");
    expect(lines[1]).toMatch(/^asset\s+span\s+trades\s+win %\s+PF\s+exp\. USD/);
    expect(lines[2]).toMatch(/^SOL\s+whole\s+\d+/);
    expect(lines[3]).toMatch(/^SOL\s+from 2023-01-01\s+\d+/);
    expect(lines.length).toBeGreaterThanOrEqual(4);

    const bad = await runCli(["backtest", "--asset", "DOGE"], {});
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("usage: backtest");
    const badDate = await runCli(["backtest", "--asset", "BTC", "--from", "yesterday"], {});
    expect(badDate.code).toBe(2);
    expect(badDate.stderr).toContain("from");
  }, 300_000);
});
