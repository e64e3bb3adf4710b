import { describe, expect, it } from "vitest";
import { ranks, spearman } from "../../../src/domain/evaluation/statistics.js";

describe("ranks", () => {
  it("numbers values 1..n in ascending order and gives a tie group the mean of the positions it holds", () => {
    expect(ranks([3, 1, 3, 2])).toEqual([3.5, 1, 3.5, 2]);
    expect(ranks([5, 5, 5])).toEqual([2, 2, 2]);
    expect(ranks([-0.02, 0, 0.01, 0, -0.02, 0.5])).toEqual([1.5, 3.5, 5, 3.5, 1.5, 6]);
    expect(ranks([])).toEqual([]);
  });

  it("makes Spearman's rho 1 for any increasing relation and −1 for a decreasing one", () => {
    const xs = [0.3, -1, 2, 7, 0.31, 5];
    expect(spearman(xs, xs.map((x) => Math.exp(x))).rho).toBeCloseTo(1, 12);
    expect(spearman(xs, xs.map((x) => -(x ** 3))).rho).toBeCloseTo(-1, 12);
  });
});
