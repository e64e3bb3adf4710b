import { describe, expect, it } from "vitest";
import { MaturedWindow } from "../../../src/domain/calibration/matured-window.js";

const HOUR = 3_600_000;
const START = Date.UTC(2023, 0, 1);

describe("a calibrator's window of matured outcomes", () => {
  it("evicts the outcomes older than the cut, oldest first, with the score and outcome each was pushed with", () => {
    const w = new MaturedWindow();
    for (let i = 0; i < 10; i++) w.push(START + i * HOUR, i - 4.5, i % 3 === 0);
    const evicted: [number, boolean][] = [];
    w.dropBefore(START + 4 * HOUR, (score, up) => evicted.push([score, up]));
    expect(evicted).toEqual([
      [-4.5, true],
      [-3.5, false],
      [-2.5, false],
      [-1.5, true],
    ]);
    expect(w.size).toBe(6);
  });

  it("keeps every live outcome intact across growth and compaction (a year's window slid over three years)", () => {
    const w = new MaturedWindow();
    const evicted: number[] = [];
    const hours = 3 * 8760;
    const window = 8760;
    for (let i = 0; i < hours; i++) {
      w.push(START + i * HOUR, i * 0.25, i % 2 === 0);
      w.dropBefore(START + (i - window + 1) * HOUR, (score) => evicted.push(score));
    }
    expect(w.size).toBe(window);
    // Evicted in push order, nothing lost or repeated: exactly the first hours - window scores.
    expect(evicted.length).toBe(hours - window);
    expect(evicted.every((score, k) => score === k * 0.25)).toBe(true);
    // What is left comes out in order too.
    const rest: number[] = [];
    w.dropBefore(Number.POSITIVE_INFINITY, (score) => rest.push(score));
    expect(rest[0]).toBe((hours - window) * 0.25);
    expect(rest.every((score, k) => score === (hours - window + k) * 0.25)).toBe(true);
  });
});
