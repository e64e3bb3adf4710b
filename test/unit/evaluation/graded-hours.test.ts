import { describe, expect, it } from "vitest";
import { GradedHours } from "../../../src/domain/evaluation/graded-hours.js";
import { runSteps } from "../../../src/domain/evaluation/steps.js";
import type { EvaluatedHour } from "../../../src/domain/evaluation/verdict-evaluation.js";

const HOUR = 3_600_000;
const T0 = Date.UTC(2024, 0, 1);

const row = (i: number, forward: EvaluatedHour["forward"]): EvaluatedHour => ({
  at: T0 + i * HOUR,
  ruling: (["STRONG_BUY", "SELL", "HOLD", "AVOID"] as const)[i % 4] ?? "HOLD",
  score: (i % 41) - 20,
  confidence: 0.5 + (i % 7) / 100,
  baseRate: 0.51,
  forward,
});

describe("graded rows kept in columns", () => {
  it("give back every row as it went in, unknown outcomes as null and a zero return as zero, through growth", () => {
    const input = Array.from({ length: 10_000 }, (_, i) =>
      row(i, { h4: i % 3 === 0 ? null : (i - 5_000) / 1e5, h24: i % 5 === 0 ? 0 : -0.01, h72: i > 9_900 ? null : 0.02 }),
    );
    const graded = new GradedHours(1);
    for (const r of input) graded.push(r);
    expect(graded.length).toBe(10_000);
    expect(graded.lastAt()).toBe(T0 + 9_999 * HOUR);
    expect(runSteps(graded.rowsSteps())).toEqual(input);
  });

  it("a row is settled only when every horizon has an outcome", () => {
    const graded = new GradedHours();
    graded.push(row(0, { h4: 0.01, h24: 0, h72: -0.02 }));
    graded.push(row(1, { h4: 0.01, h24: 0.02, h72: null }));
    expect(graded.settled(0)).toBe(true);
    expect(graded.settled(1)).toBe(false);
  });

  it("copies a row from another result unchanged, and refuses rows out of order", () => {
    const a = new GradedHours();
    a.push(row(3, { h4: 0.1, h24: null, h72: null }));
    const b = new GradedHours();
    b.pushFrom(a, 0);
    expect(b.row(0)).toEqual(a.row(0));
    expect(() => b.push(row(3, { h4: null, h24: null, h72: null }))).toThrow(/ascend/);
    expect(() => b.pushFrom(a, 0)).toThrow(/ascend/);
    expect(b.length).toBe(1);
  });
});
