import type { Regime, TaoRuling } from "../../src/domain/market/vocabulary.js";
import { rulingForScore } from "../../src/domain/judiciary/score-bands.js";
import type { Candle } from "../../src/domain/signals/reading.js";
import type { Asset } from "../../src/domain/signals/signal-keys.js";
import type { BarInput } from "../../src/domain/ghost/bar-input.js";

/**
 * A technical stand-in for the judiciary, council and regime engines, so the Ghost Trader rules
 * can be run over the bundled price history with trades to look at: the service's calibrated
 * engines never clear a gate over that history (no measured edge, so the traders stand aside),
 * which leaves the exits, sizing and costs untested without another source of entries (and
 * benchmarkable without the engines). It is NOT the service's decision engine and its figures are not the service's track
 * record: they measure the exits, sizing and costs of the Ghost rules on real prices under a
 * simple, documented trend/momentum signal.
 *  - score = 50 × clamp(EMA-200 distance % / 5, ±1) + 50 × (RSI − 50) / 50, ruling by the
 *    DECISIONS 4 bands, confidence 0.5 + |score| / 200; the council (BTC, SOL, TAO) mirrors it,
 *    as a judiciary-mode council would;
 *  - regime: BULL_TRENDING when EMA 50 > EMA 200 and price > EMA 200 (confidence grows with the
 *    EMA spread), BEAR_TRENDING when both are below, ACCUMULATION otherwise (confidence 0.5);
 *  - liquidity UNKNOWN (no order book in replay, DECISIONS 7): gate 0 checks volume only.
 * Indicators are streaming (one pass, O(1) per bar): EMA seeded with the first close, Wilder RSI
 * seeded with the mean of its first 14 moves, volume ratio over the 24 bars before the last.
 */
export class StandInInputs {
  private readonly ema200 = new Ema(200);
  private readonly ema50 = new Ema(50);
  private readonly rsi = new WilderRsi(14);
  private readonly volumes: number[] = [];
  private readonly rsiHistory: number[] = [];
  private bars = 0;

  constructor(private readonly asset: Asset) {}

  next(bar: Candle): BarInput {
    this.bars += 1;
    const ema200 = this.ema200.add(bar.c);
    const ema50 = this.ema50.add(bar.c);
    const rsi = this.rsi.add(bar.c);
    const prior = this.volumes.length === 24 ? this.volumes.reduce((s, v) => s + v, 0) / 24 : null;
    const volumeRatio = prior === null || prior <= 0 ? null : bar.v / prior;
    this.volumes.push(bar.v);
    if (this.volumes.length > 24) this.volumes.shift();
    if (rsi !== null) {
      this.rsiHistory.push(rsi);
      if (this.rsiHistory.length > 12) this.rsiHistory.shift();
    }
    const warm = this.bars >= 200 && rsi !== null;
    const dist = ((bar.c - ema200) / ema200) * 100;
    const score = warm ? 50 * clamp(dist / 5, -1, 1) + (rsi - 50) : 0;
    const ruling = rulingFor(score);
    const confidence = Math.min(1, 0.5 + Math.abs(score) / 200);
    const id = `stand-in-${this.asset}-${bar.t}`;
    return {
      asset: this.asset,
      candle: bar,
      judiciary: warm
        ? {
            ruling,
            confidence,
            verdictId: id,
            signals: [
              { key: "BTC_EMA200_DISTANCE", value: dist, contribution: clamp(dist / 5, -1, 1) },
              { key: "BTC_RSI", value: rsi, contribution: (rsi - 50) / 50 },
            ],
          }
        : null,
      council: warm && this.asset !== "ETH" ? { ruling, confidence, sessionId: id } : null,
      regime: warm ? regimeFor(bar.c, ema50, ema200) : null,
      indicators: {
        rsi1h: rsi,
        ema200: warm ? ema200 : null,
        volumeRatio,
        rsiLow12h: this.rsiHistory.length === 0 ? null : Math.min(...this.rsiHistory),
      },
      liquidity: { status: "UNKNOWN", depthUsd: null, live: false },
      extras: { assetBtcRatio: null, networkHealth: this.asset === "SOL" ? "UNKNOWN" : null },
    };
  }
}

function regimeFor(close: number, ema50: number, ema200: number): { regime: Regime; confidence: number; breakoutImminent: boolean } {
  if (ema50 > ema200 && close > ema200) {
    return { regime: "BULL_TRENDING", confidence: Math.min(1, 0.6 + ((ema50 - ema200) / ema200) * 10), breakoutImminent: false };
  }
  if (ema50 < ema200 && close < ema200) return { regime: "BEAR_TRENDING", confidence: 0.7, breakoutImminent: false };
  return { regime: "ACCUMULATION", confidence: 0.5, breakoutImminent: false };
}

/** DECISIONS 4 score bands, the Judiciary Engine's own mapping. */
export function rulingFor(score: number): TaoRuling {
  return rulingForScore(score);
}

class Ema {
  private value: number | null = null;
  private readonly k: number;
  constructor(period: number) {
    this.k = 2 / (period + 1);
  }
  add(x: number): number {
    this.value = this.value === null ? x : this.value + this.k * (x - this.value);
    return this.value;
  }
}

class WilderRsi {
  private prev: number | null = null;
  private gains = 0;
  private losses = 0;
  private n = 0;
  constructor(private readonly period: number) {}
  add(x: number): number | null {
    if (this.prev === null) {
      this.prev = x;
      return null;
    }
    const d = x - this.prev;
    this.prev = x;
    const g = Math.max(d, 0);
    const l = Math.max(-d, 0);
    this.n += 1;
    if (this.n <= this.period) {
      this.gains += g / this.period;
      this.losses += l / this.period;
      if (this.n < this.period) return null;
    } else {
      this.gains = (this.gains * (this.period - 1) + g) / this.period;
      this.losses = (this.losses * (this.period - 1) + l) / this.period;
    }
    if (this.losses === 0) return this.gains === 0 ? 50 : 100;
    return 100 - 100 / (1 + this.gains / this.losses);
  }
}

function clamp(x: number, lo: number, hi: number): number {
  return Math.min(hi, Math.max(lo, x));
}
