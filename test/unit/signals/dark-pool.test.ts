import { describe, expect, it } from "vitest";
import { darkPoolComposite } from "../../../src/domain/signals/dark-pool.js";

const history = Array.from({ length: 60 }, (_, i) => (i % 2 === 0 ? 100 : -100)); // mean 0, stdev 100

describe("darkPoolComposite (DECISIONS 7)", () => {
  it("is 0 when no flow is live", () => {
    expect(darkPoolComposite([])).toBe(0);
    expect(
      darkPoolComposite([
        { key: "ENTITY_PRESSURE", status: "STALE", latest: 500, history },
        { key: "WHALE_FLOW", status: "DEAD", latest: null, history: [] },
      ]),
    ).toBe(0);
  });

  it("is 50 + 50·tanh(mean z) over the live flows only", () => {
    const v = darkPoolComposite([
      { key: "ENTITY_PRESSURE", status: "LIVE", latest: 100, history }, // z = 1
      { key: "STABLECOIN_MINT", status: "LIVE", latest: 0, history }, // z = 0
      { key: "WHALE_FLOW", status: "STALE", latest: 10_000, history }, // ignored
    ]);
    expect(v).toBe(Math.round(50 + 50 * Math.tanh(0.5)));
    expect(v).toBe(73);
  });

  it("skips a flow with too little history or no variance", () => {
    expect(darkPoolComposite([{ key: "ENTITY_PRESSURE", status: "LIVE", latest: 1, history: [1, 2, 3] }])).toBe(0);
    expect(darkPoolComposite([{ key: "ENTITY_PRESSURE", status: "LIVE", latest: 1, history: Array(20).fill(5) }])).toBe(0);
  });

  it("stays within 1..100 for extreme flows", () => {
    expect(darkPoolComposite([{ key: "ENTITY_PRESSURE", status: "LIVE", latest: 1e9, history }])).toBe(100);
  });
});
