import { describe, expect, it } from "vitest";
import { forwardReturn, indexAtOrBefore, PricePath, PricePathBuilder } from "../../../src/domain/calibration/price-path.js";

const HOUR = 3_600_000;
const T0 = Date.UTC(2024, 0, 1);

describe("a price path's typed columns", () => {
  it("a view handed out keeps what it saw while the builder appends and outgrows its columns", () => {
    const builder = new PricePathBuilder(2);
    builder.push(T0, 100);
    builder.push(T0 + HOUR, 101);
    const early = builder.path();
    for (let i = 2; i < 50; i++) builder.push(T0 + i * HOUR, 100 + i);
    expect(early.length).toBe(2);
    expect(early.points()).toEqual([
      { t: T0, close: 100 },
      { t: T0 + HOUR, close: 101 },
    ]);
    const all = builder.path();
    expect(all.length).toBe(50);
    expect(all.timeAt(49)).toBe(T0 + 49 * HOUR);
    expect(all.closeAt(49)).toBe(149);
  });

  it("refuses a bar that does not come after the last one", () => {
    const builder = new PricePathBuilder();
    builder.push(T0, 100);
    expect(() => builder.push(T0, 100)).toThrow(/ascend/);
    expect(() => builder.push(T0 - HOUR, 99)).toThrow(/ascend/);
    expect(builder.length).toBe(1);
  });

  it("upTo cuts at a time without copying, and is the path itself when nothing is later", () => {
    const path = PricePath.of(Array.from({ length: 10 }, (_, i) => ({ t: T0 + i * HOUR, close: 100 + i })));
    expect(path.upTo(T0 + 9 * HOUR)).toBe(path);
    const cut = path.upTo(T0 + 4 * HOUR + 30 * 60_000);
    expect(cut.length).toBe(5);
    expect(cut.lastTime()).toBe(T0 + 4 * HOUR);
    expect(path.upTo(T0 - 1).length).toBe(0);
    expect(path.upTo(T0 - 1).lastTime()).toBeNull();
    expect(indexAtOrBefore(path, T0 + 3 * HOUR + 1)).toBe(3);
    expect(indexAtOrBefore(path, T0 - 1)).toBe(-1);
  });

  it("a forward return needs a matured horizon, both ends priced, and no gap to bridge", () => {
    const path = PricePath.of([
      { t: T0, close: 100 },
      { t: T0 + HOUR, close: 110 },
      { t: T0 + 5 * HOUR, close: 120 },
    ]);
    expect(forwardReturn(path, T0, HOUR)).toBeCloseTo(0.1, 12);
    expect(forwardReturn(path, T0, HOUR, T0 + HOUR - 1)).toBeNull();
    // The end of T0 + 3 h falls in a gap of three bars: the last price is stale.
    expect(forwardReturn(path, T0, 3 * HOUR)).toBeNull();
    expect(forwardReturn(path, T0, 6 * HOUR)).toBeNull();
    expect(forwardReturn(PricePath.of([]), T0, HOUR)).toBeNull();
  });
});
