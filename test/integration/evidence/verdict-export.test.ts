import { rm } from "node:fs/promises";
import { afterAll, describe, expect, it } from "vitest";
import { runCli } from "../../support/cli.js";
import { ReplayMarketFeed } from "../../../src/feeds/replay/replay-feed.js";
import { calibratedStream, pricePath, type RulingStream } from "../../../src/application/ruling-streams.js";
import { withOutcomes } from "../../../src/domain/evaluation/stream-outcomes.js";
import { evaluateSpan } from "../../../src/domain/evaluation/verdict-evaluation.js";
import { truncatedMarketData } from "../../support/truncated-market-data.js";

const CUT = "2025-03-10T13:00:00.000Z";
let cutDir: string | undefined;

afterAll(async () => {
  if (cutDir) await rm(cutDir, { recursive: true, force: true });
});

function rows(csv: string): string[][] {
  return csv
    .trim()
    .split("\n")
    .map((l) => l.split(","));
}

describe("verdicts export (the walk-forward hourly verdict stream)", () => {
  it("writes one calibrated row per closed hour with the documented columns", async () => {
    const out = await runCli(["verdicts", "export", "--asset", "tao", "--from", "2025-03-01T00:00:00Z", "--to", "2025-03-03T00:00:00Z"], {});
    expect(out.stderr).toBe("");
    expect(out.code).toBe(0);
    const [header, ...body] = rows(out.stdout);
    expect(header).toEqual(["time", "ruling", "score", "confidence", "horizon_hours", "calibration", "p_up"]);
    expect(body).toHaveLength(49);
    expect(body[0]?.[0]).toBe("2025-03-01T00:00:00.000Z");
    expect(body[48]?.[0]).toBe("2025-03-03T00:00:00.000Z");
    for (const r of body) {
      const confidence = Number(r[3]);
      expect(confidence).toBeGreaterThan(0);
      expect(confidence).toBeLessThan(1);
      expect(r[4]).toBe("24");
      // TAO's history starts 2024-04: by March 2025 the window holds ~11 months of outcomes.
      expect(["isotonic", "base_rate"]).toContain(r[5]);
    }
  }, 120_000);

  it("does not change a row for hour t when every datum after t is removed (no look-ahead)", async () => {
    cutDir ??= await truncatedMarketData("market-data", Date.parse(CUT));
    const args = ["verdicts", "export", "--asset", "TAO", "--from", "2025-03-05T00:00:00Z", "--to", CUT, "--format", "json"];
    const [full, cut] = [await runCli(args, {}), await runCli(args, { MARKET_DATA_DIR: cutDir })];
    expect(full.code).toBe(0);
    expect(cut.code).toBe(0);
    const a = JSON.parse(full.stdout) as { time: string }[];
    const b = JSON.parse(cut.stdout) as { time: string }[];
    expect(a.length).toBe(5 * 24 + 13 + 1);
    expect(a[a.length - 1]?.time).toBe(CUT);
    expect(b).toEqual(a);
  }, 180_000);

  it("publishes the same evaluation at t, calibration map included, when every datum after t is removed (verdict, council and agent streams)", async () => {
    cutDir ??= await truncatedMarketData("market-data", Date.parse(CUT));
    const t = Date.parse(CUT);
    const [full, cut] = [await ReplayMarketFeed.load("market-data"), await ReplayMarketFeed.load(cutDir)];
    const from = Date.parse("2025-01-01T00:00:00Z");
    const streams: RulingStream[] = [
      { kind: "verdict", asset: "TAO" },
      { kind: "council", asset: "TAO" },
      // Two of the TAO council's agents that vote on the bundled data (the maps its votes are published with).
      { kind: "agent", asset: "TAO", agent: "RISK_WARDEN" },
      { kind: "agent", asset: "TAO", agent: "MACRO_SAGE" },
    ];
    for (const stream of streams) {
      // What the EvidenceActor computes at t: the walk-forward rows up to t, their outcomes as
      // known at t, the figures over them, and the map in force at t.
      const published = async (feed: ReplayMarketFeed) => {
        const run = await calibratedStream(feed, stream, from, t);
        const span = evaluateSpan("from_2023", withOutcomes(run.rows, pricePath(feed, stream.asset, t), t));
        return { map: run.map, span };
      };
      const [a, b] = [await published(full), await published(cut)];
      expect(a.span.hours).toBeGreaterThan(24 * 60);
      expect(a.span.reliability.calls).toBeGreaterThan(0);
      expect(b).toEqual(a);
    }
  }, 180_000);

  it("refuses a bad asset or format with the usage and exit code 2", async () => {
    const out = await runCli(["verdicts", "export", "--asset", "DOGE"], {});
    expect(out.code).toBe(2);
    expect(out.stderr).toContain("usage: verdicts export");
    const fmt = await runCli(["verdicts", "export", "--asset", "BTC", "--format", "xml"], {});
    expect(fmt.code).toBe(2);
  }, 60_000);
});
