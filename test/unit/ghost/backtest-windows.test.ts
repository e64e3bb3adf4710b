import { describe, expect, it } from "vitest";
import { backtestWindows } from "../../../src/backtest/backtest-windows.js";
import type { Candle } from "../../../src/domain/signals/reading.js";
import type { Asset } from "../../../src/domain/signals/signal-keys.js";

const H = 3_600_000;
const DAY = 24 * H;
/** The bundled history's ends: BTC, ETH and SOL on 2026-05-16 18:00, TAO on 2026-04-22 06:00 (bar opens). */
const LAST_OPEN: Readonly<Record<Asset, number>> = {
  BTC: Date.UTC(2026, 4, 16, 18),
  ETH: Date.UTC(2026, 4, 16, 18),
  SOL: Date.UTC(2026, 4, 16, 18),
  TAO: Date.UTC(2026, 3, 22, 6),
};
const history = (a: Asset): Candle[] => Array.from({ length: 90 * 24 }, (_, i) => ({ t: LAST_OPEN[a] - i * H, o: 1, h: 1, l: 1, c: 1, v: 1 })).reverse();
/** The replay feed's read: the newest `limit` bars closed by `at`, oldest first. */
const feed = {
  candles: (a: Asset, _i: string, at: number, limit: number): readonly Candle[] => history(a).filter((c) => c.t + H <= at).slice(-limit),
};
const ALL: readonly Asset[] = ["BTC", "ETH", "SOL", "TAO"];
const barsIn = (a: Asset, from: number, to: number): number => history(a).filter((c) => c.t >= from && c.t < to).length;

describe("backtest CLI windows", () => {
  it("by default every asset gets its own last 30 days: 720 bars ending at its newest bar's close", () => {
    const windows = backtestWindows(feed, ALL, undefined, undefined, Date.UTC(2026, 10, 26));
    expect(windows.map((w) => w.assets)).toEqual([["BTC", "ETH", "SOL"], ["TAO"]]);
    for (const w of windows) {
      for (const a of w.assets) {
        expect(w.to).toBe(LAST_OPEN[a] + H);
        expect(w.to - w.from).toBe(30 * DAY);
        // A shared end (BTC's) left TAO 132 bars, and an end 1 ms past a bar open dropped one (719).
        expect(barsIn(a, w.from, w.to)).toBe(720);
      }
    }
  });

  it("a given --to is one window for all; --from alone ends at the newest bar close of any asset", () => {
    const to = Date.UTC(2026, 0, 1);
    expect(backtestWindows(feed, ALL, undefined, to, Date.UTC(2026, 10, 26))).toEqual([{ assets: ALL, from: to - 30 * DAY, to }]);
    const from = Date.UTC(2026, 2, 1);
    expect(backtestWindows(feed, ALL, from, undefined, Date.UTC(2026, 10, 26))).toEqual([{ assets: ALL, from, to: LAST_OPEN.BTC + H }]);
  });
});
