import { beforeAll, describe, expect, it } from "vitest";
import type { z } from "zod";
import { barsBetween, engineBarInputs, regimeTimeline, runEngineBacktest, type EngineBacktestResult } from "../../../src/backtest/engine-backtest.js";
import { runBacktest, type BacktestReport } from "../../../src/domain/ghost/backtest.js";
import { evaluateGates } from "../../../src/domain/ghost/entry-gates.js";
import { ASSET_RULES } from "../../../src/domain/ghost/asset-rules.js";
import type { BarInput } from "../../../src/domain/ghost/bar-input.js";
import { tradeView } from "../../../src/domain/ghost/track-record-view.js";
import { roundUsd } from "../../../src/domain/ghost/money.js";
import { btcTradeSchema, ethTradeSchema, solTradeSchema, taoTradeSchema } from "../../../src/http/schemas/ghost.js";
import { calibratedStream } from "../../../src/application/ruling-streams.js";
import { ASSETS, type Asset } from "../../../src/domain/signals/signal-keys.js";
import { sharedReplayFeed } from "../../support/replay-feed.js";

const SCHEMA: Record<Asset, z.ZodType> = { BTC: btcTradeSchema, ETH: ethTradeSchema, SOL: solTradeSchema, TAO: taoTradeSchema };
const FAVOURABLE = new Set(["BULL_TRENDING", "RISK_ON", "ACCUMULATION", "WHALE_ACCUMULATION", "LOW_VOLATILITY"]);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const HOUR = 3_600_000;

// A 60-day window of real bundled history in which the uncalibrated engines opened trades.
const FROM = Date.parse("2025-08-01T00:00:00Z");
const TO = Date.parse("2025-09-30T00:00:00Z");

/**
 * The same bars with the Judiciary engine's own, uncalibrated confidence: what ETH's gate read
 * before issue 16. (A judiciary-mode council's own figure is capped at 0.47, under every council
 * threshold, calibrated or not: the council-gated traders stand aside either way.)
 */
function uncalibrated(inputs: readonly BarInput[]): BarInput[] {
  return inputs.map((b) => {
    const raw = b.judiciary?.rawConfidence;
    if (b.judiciary === null || raw === undefined) return b;
    return { ...b, judiciary: { ...b.judiciary, confidence: raw } };
  });
}

describe("engine backtest (judiciary, judiciary-mode councils, walk-forward regime) on 60 real days", () => {
  let result: EngineBacktestResult;
  const inputs = new Map<Asset, BarInput[]>();
  const rawReports = new Map<Asset, BacktestReport>();

  beforeAll(async () => {
    const feed = await sharedReplayFeed();
    result = await runEngineBacktest(feed, { assets: ["BTC", "ETH", "SOL", "TAO"], from: FROM, to: TO });
    const regimes = regimeTimeline(feed, FROM, TO);
    for (const asset of ASSETS) {
      const bars = await engineBarInputs(feed, asset, barsBetween(feed, asset, FROM, TO), regimes);
      inputs.set(asset, bars);
      rawReports.set(asset, runBacktest(asset, uncalibrated(bars)));
    }
  }, 300_000);

  it("gates on the published, calibrated confidence: the export's for every hour", async () => {
    const feed = await sharedReplayFeed();
    for (const asset of ASSETS) {
      const bars = inputs.get(asset) ?? [];
      expect(bars.length).toBeGreaterThan(59 * 24);
      const closes = bars.map((b) => b.candle.t + HOUR);
      const span = [closes[0] as number, closes[closes.length - 1] as number] as const;
      const verdicts = new Map((await calibratedStream(feed, { kind: "verdict", asset }, ...span)).rows.map((r) => [r.at, r.confidence]));
      const sessions = asset === "ETH" ? new Map<number, number>() : new Map((await calibratedStream(feed, { kind: "council", asset }, ...span)).rows.map((r) => [r.at, r.confidence]));
      let gatedByCouncil = 0;
      for (const b of bars) {
        expect(b.judiciary?.confidence).toBe(verdicts.get(b.candle.t + HOUR));
        // The council gate reads the session's own calibrated figure (judiciary mode in every backtest).
        if (b.council !== null && sessions.has(b.candle.t + HOUR)) {
          expect(b.council.confidence).toBe(sessions.get(b.candle.t + HOUR));
          gatedByCouncil++;
        }
      }
      if (asset !== "ETH") expect(gatedByCouncil).toBeGreaterThan(59 * 20);
    }
  });

  it("stands aside on every asset: no calibrated confidence reaches the entry threshold", () => {
    expect(result.reports.map((r) => r.asset)).toEqual(["BTC", "ETH", "SOL", "TAO"]);
    for (const r of result.reports) {
      expect(r.bars).toBeGreaterThan(59 * 24);
      expect(Date.parse(r.from ?? "")).toBeGreaterThanOrEqual(FROM);
      expect(Date.parse(r.to ?? "")).toBeLessThan(TO);
      expect(r.trades).toEqual([]);
      const threshold = ASSET_RULES[r.asset].councilMinConfidence ?? ASSET_RULES[r.asset].judiciaryMinConfidence ?? 1;
      const bars = inputs.get(r.asset) ?? [];
      // Bars where every other gate was open: the council gate (calibrated confidence) alone held the trader back.
      const heldByCouncil = bars.filter((b) => {
        const g = evaluateGates(b, ASSET_RULES[r.asset]);
        return !g.council && g.gatesMet === 7;
      });
      for (const b of bars) {
        expect(b.judiciary?.confidence ?? 0).toBeLessThan(threshold);
        expect(b.council?.confidence ?? 0).toBeLessThan(threshold);
      }
      if (r.asset === "BTC") expect(heldByCouncil.length).toBeGreaterThan(0);
    }
  });

  it("with the uncalibrated figures the same bars would have traded: calibration is what stands them aside", () => {
    const trades = [...rawReports.values()].reduce((n, r) => n + r.trades.length, 0);
    expect(trades).toBeGreaterThanOrEqual(3);
  });

  it("those trades still run the real trade path: schema-valid, synthetic, stats that add up", () => {
    for (const r of rawReports.values()) {
      for (const t of r.trades) {
        expect(SCHEMA[r.asset].safeParse(tradeView(t)).success).toBe(true);
        expect(t.origin).toBe("synthetic");
        expect(t.entryTime).toBeGreaterThanOrEqual(FROM);
        expect(t.exitTime).toBeGreaterThan(t.entryTime);
        expect(t.regimeAtEntry !== null && FAVOURABLE.has(t.regimeAtEntry)).toBe(true);
        // BTC, SOL and TAO enter through their council gate: the trade points at the session.
        if (r.asset !== "ETH") expect(t.triggerId ?? "").toMatch(UUID);
      }
      const sum = roundUsd(r.trades.reduce((s, t) => s + t.pnlUsd, 0));
      expect(r.stats.totalPnl).toBeCloseTo(sum, 2);
      expect(r.stats.totalTrades).toBe(r.trades.length);
      expect(r.performance.wins + r.performance.losses).toBe(r.trades.length);
    }
  });
});
