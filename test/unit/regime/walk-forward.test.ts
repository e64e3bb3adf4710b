import { beforeAll, describe, expect, it } from "vitest";
import type { Candle } from "../../../src/domain/signals/reading.js";
import { walkForward } from "../../../src/domain/regime/walk-forward.js";
import { loadHourlyCandles } from "../../support/csv-loader.js";

const options = { windowBars: 60 * 24, refitEveryBars: 336, restarts: 2, maxIterations: 50 };
let btc: Candle[] = [];

beforeAll(() => {
  btc = loadHourlyCandles("btc_usdt_1h_binance.csv.gz", "2022-02-20", "2022-07-01");
});

describe("walk-forward regimes on real BTC hours (2022)", () => {
  it("publishes past regimes that later bars cannot change (no look-ahead)", () => {
    const cut = btc.findIndex((c) => c.t >= Date.parse("2022-06-01"));
    const history = walkForward(btc.slice(0, cut + 200), options);
    // The future rewritten: a crash to a tenth with ten times the volume.
    const rewritten = btc.slice(0, cut + 200).map((c, i) => (i < cut ? c : { ...c, o: c.o / 10, h: c.h / 10, l: c.l / 10, c: c.c / 10, v: c.v * 10 }));
    const other = walkForward(rewritten, options);
    const before = (pts: typeof history) => pts.filter((p) => p.t < btc[cut]!.t);
    expect(before(history).length).toBeGreaterThan(500);
    expect(before(other)).toEqual(before(history));
    expect(other.slice(-100)).not.toEqual(history.slice(-100));
  }, 120_000);

  it("reads the May-June 2022 collapse (LUNA, 3AC; BTC -40%) as bearish or volatile", () => {
    const pts = walkForward(btc, options).filter((p) => p.t >= Date.parse("2022-05-05") && p.t < Date.parse("2022-06-25"));
    const stressed = pts.filter((p) => p.regime === "BEAR_TRENDING" || p.regime === "HIGH_VOLATILITY" || p.regime === "DISTRIBUTION").length;
    expect(stressed / pts.length).toBeGreaterThanOrEqual(0.5);
  }, 120_000);
});
