import type { BarInput } from "../../../src/domain/ghost/bar-input.js";
import type { Candle } from "../../../src/domain/signals/reading.js";
import type { Asset } from "../../../src/domain/signals/signal-keys.js";

export const HOUR = 3_600_000;
/** Wednesday 2024-01-03 00:00 UTC: far from any weekend block. */
export const T0 = Date.UTC(2024, 0, 3, 0, 0, 0);

export function candle(t: number, o: number, h: number, l: number, c: number, v = 100): Candle {
  return { t, o, h, l, c, v };
}

/**
 * A bar on which every gate passes for every asset: price 1 % above EMA 200, RSI 55, volume 2x,
 * BUY rulings at 0.8, BULL_TRENDING at 0.9 (quality 25 + 15 + 15 + 16 + 18 = 89).
 */
export function passingBar(c: Candle, asset: Asset = "BTC", over: Partial<BarInput> = {}): BarInput {
  return {
    asset,
    candle: c,
    judiciary: {
      ruling: "BUY",
      confidence: 0.8,
      verdictId: `verdict-${c.t}`,
      signals: [
        { key: "BTC_RSI", value: 55, contribution: 0.4 },
        { key: "DXY", value: 104, contribution: -0.2 },
      ],
    },
    council: asset === "ETH" ? null : { ruling: "BUY", confidence: 0.8, sessionId: `session-${c.t}` },
    regime: { regime: "BULL_TRENDING", confidence: 0.9, breakoutImminent: false },
    indicators: { rsi1h: 55, ema200: c.c / 1.01, volumeRatio: 2, rsiLow12h: 50 },
    liquidity: { status: "UNKNOWN", depthUsd: null, live: false },
    extras: { assetBtcRatio: null, networkHealth: null },
    ...over,
  };
}

/** A bar on which the judiciary gate fails, so no entry is decided. */
export function quietBar(c: Candle, asset: Asset = "BTC"): BarInput {
  const base = passingBar(c, asset);
  return { ...base, judiciary: base.judiciary === null ? null : { ...base.judiciary, ruling: "HOLD" } };
}
