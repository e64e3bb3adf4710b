import { describe, expect, it } from "vitest";
import { ASSET_RULES } from "../../../src/domain/ghost/asset-rules.js";
import type { CostModel } from "../../../src/domain/ghost/costs.js";
import {
  initialGhostState,
  stepGhost,
  type GhostState,
  type StepResult,
} from "../../../src/domain/ghost/ghost-trader.js";
import { exitBarOf } from "../../../src/domain/ghost/position-exits.js";
import type { Candle } from "../../../src/domain/signals/reading.js";
import { HOUR, T0, candle, passingBar, quietBar } from "./bar-builder.js";

const FEES_ONLY: CostModel = { feeRate: 0.001, slippageRate: 0 };
const rules = ASSET_RULES.BTC;

/** Decide at bar 0 (close 100), enter at bar 1's open (100), then feed `later` quiet bars. */
function run(later: Candle[], costs: CostModel = FEES_ONLY) {
  let state: GhostState = initialGhostState("BTC", "live_paper");
  const results: StepResult[] = [];
  const feed = [passingBar(candle(T0, 100, 100, 100, 100)), ...later.map((c) => quietBar(c))];
  for (const input of feed) {
    const r = stepGhost(state, input, rules, costs);
    results.push(r);
    state = r.state;
  }
  return { state, results, closed: results.flatMap((r) => r.closed), signals: results.flatMap((r) => r.signals) };
}

const bar = (i: number, o: number, h: number, l: number, c: number) => candle(T0 + i * HOUR, o, h, l, c);
const SIZE = 33.33333333; // 1 % of 10,000 USD at risk over a 3 % stop: 3,333.33 USD at 100

describe("Ghost Trader exits", () => {
  it("sizes from the 1 % risk rule and enters at the next bar's open, fee charged", () => {
    const { results } = run([bar(1, 100, 100.5, 99.5, 100)]);
    expect(results[0]?.state.pending).not.toBeNull();
    const pos = results[1]?.state.position;
    expect(pos?.entryPrice).toBe(100);
    expect(pos?.size).toBe(SIZE);
    expect(pos?.entryFeeUsd).toBe(3.33);
    expect(pos?.stopLoss).toBeCloseTo(97, 10);
    expect(pos?.regimeAtEntry).toBe("BULL_TRENDING");
    expect(pos?.triggerId).toBe(`session-${T0}`);
    expect(results[1]?.signals[0]).toMatchObject({ action: "ENTRY", price: 100, size: SIZE, mode: "A", pnl_usd: null, is_paper: true });
  });

  it("a stop-loss closes at the stop price with fees applied", () => {
    const { closed, state, signals } = run([bar(1, 100, 100.5, 99.5, 100), bar(2, 99, 99, 96, 96.5)]);
    expect(closed).toHaveLength(1);
    const t = closed[0]!;
    expect(t.exitReason).toBe("STOP_LOSS");
    expect(t.exitPrice).toBeCloseTo(97, 10);
    // gross −3 × 33.33333333 = −100.00; exit fee 97 × 33.33333333 × 0.001 = 3.2333; entry fee
    // 3.33 (recorded, cents): −106.5633 → −106.56
    expect(t.pnlUsd).toBe(-106.56);
    expect(t.result).toBe("LOSS");
    expect(t.tp1PnlUsd).toBeNull();
    expect(state.equityUsd).toBe(9_893.44);
    expect(signals.at(-1)).toMatchObject({ action: "EXIT", reason: "STOP_LOSS", pnl_usd: -106.56 });
  });

  it("a bar opening below the stop fills at the open less slippage (gap), not at the stop", () => {
    const costs: CostModel = { feeRate: 0, slippageRate: 0.001 };
    const { closed } = run([bar(1, 100, 100.5, 99.5, 100), bar(2, 95, 95.5, 94, 95)], costs);
    expect(closed[0]?.exitPrice).toBeCloseTo(95 * 0.999, 10);
    expect(closed[0]?.entryPrice).toBeCloseTo(100.1, 10);
  });

  it("TP1 then TP2: half at 102, rest at 104.5, P&L includes the partial", () => {
    const { closed, signals } = run([
      bar(1, 100, 100.5, 99.5, 100),
      bar(2, 100, 102.5, 99.8, 102.2),
      bar(3, 102.2, 104.8, 102, 104.6),
    ]);
    const t = closed[0]!;
    expect(t.fills.map((f) => f.reason)).toEqual(["TP1", "TP2"]);
    expect(t.fills[0]?.size).toBe(16.66666666);
    expect(t.fills[1]?.size).toBe(16.66666667);
    // TP1: 2 × 16.66666666 − 102 × 16.66666666 × 0.001 − 3.33 / 2 = 33.33 − 1.70 − 1.665 = 29.97
    expect(t.tp1PnlUsd).toBe(29.97);
    // TP2: 4.5 × 16.66666667 − 104.5 × 16.66666667 × 0.001 − 1.665 = 75.00 − 1.7417 − 1.665 = 71.59
    expect(t.fills[1]?.pnlUsd).toBe(71.59);
    expect(t.pnlUsd).toBe(101.56);
    expect(t.result).toBe("WIN");
    expect(t.exitPrice).toBeCloseTo(104.5, 10);
    expect(t.pnlPct).toBeCloseTo((101.56 / (100 * SIZE)) * 100, 4);
    expect(signals.map((s) => s.action)).toEqual(["ENTRY", "TP1", "EXIT"]);
  });

  it("TP1 then break-even stop: the second half exits at the entry price", () => {
    const { closed } = run([
      bar(1, 100, 100.5, 99.5, 100),
      bar(2, 100, 102.5, 99.8, 102),
      bar(3, 101.5, 101.8, 99.5, 99.8),
    ]);
    const t = closed[0]!;
    expect(t.fills.map((f) => f.reason)).toEqual(["TP1", "BREAK_EVEN_STOP"]);
    expect(t.exitPrice).toBe(100);
    // Break-even half loses only fees: −(100 × 16.66666667 × 0.001) − 1.665 = −3.33
    expect(t.fills[1]?.pnlUsd).toBe(-3.33);
    expect(t.pnlUsd).toBe(26.64);
    expect(t.result).toBe("WIN");
  });

  it("TP1 then trailing stop: the stop ratchets from the high-water mark and never loosens", () => {
    const { closed, results } = run([
      bar(1, 100, 100.5, 99.5, 100),
      bar(2, 100, 102.5, 99.8, 102),
      bar(3, 102, 104, 101.9, 103.8),
      bar(4, 103.8, 103.9, 103, 103.2),
      bar(5, 103, 103.1, 102, 102.2),
    ]);
    const after3 = results[3]?.state.position;
    expect(after3?.hwm).toBe(104);
    expect(after3?.stopLoss).toBeCloseTo(104 * 0.985, 10);
    const after4 = results[4]?.state.position;
    expect(after4?.hwm).toBe(104);
    expect(after4?.stopLoss).toBeCloseTo(104 * 0.985, 10);
    const t = closed[0]!;
    expect(t.exitReason).toBe("TRAILING_STOP");
    expect(t.exitPrice).toBeCloseTo(102.44, 10);
  });

  it("a trade still open after 7 days is sold at the close (time exit), stamped at that close", () => {
    const flat = Array.from({ length: 24 * 7 }, (_, i) => bar(i + 1, 100, 100.5, 99.5, 100));
    const { closed, signals } = run(flat);
    const t = closed[0]!;
    expect(t.exitReason).toBe("TIME_EXIT");
    // Entered at bar 1's open; sold at the close of bar 168 (T0 + 169 h): held exactly 7 days.
    // This used to pin the exit bar's open (T0 + 168 h, 167 h held): the sale happens at the
    // close, so the stamp, the hold time and the UTC day the P&L lands on were an hour early.
    expect(t.exitTime).toBe(T0 + 169 * HOUR);
    expect(t.exitTime - t.entryTime).toBe(7 * 24 * HOUR);
    expect(t.fills.at(-1)?.t).toBe(t.exitTime);
    expect(signals.at(-1)).toMatchObject({ action: "EXIT", reason: "TIME_EXIT", at: T0 + 169 * HOUR });
    // The bar it closed on is bar 168, whose open is an hour before the stamp.
    expect(exitBarOf(t)).toBe(T0 + 168 * HOUR);
  });

  it("names the bar a stop closed on by its own stamp, the bar's open", () => {
    const { closed } = run([bar(1, 100, 100.5, 99.5, 100), bar(2, 100, 100.2, 90, 95)]);
    const t = closed[0]!;
    expect(t.exitReason).toBe("STOP_LOSS");
    expect(exitBarOf(t)).toBe(T0 + 2 * HOUR);
  });
});
