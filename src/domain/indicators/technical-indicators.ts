import { EMA, MACD, RSI, RVOL } from "trading-signals";
import type { Candle } from "../signals/reading.js";
import { RealizedVolatility } from "./realized-volatility.js";

/** The indicator values after one closed bar; null until an indicator has enough bars. */
export interface TechnicalValues {
  readonly t: number;
  readonly close: number;
  readonly rsi14: number | null;
  readonly ema200: number | null;
  /** (close − EMA200) / EMA200 × 100. */
  readonly ema200DistancePct: number | null;
  readonly macd: number | null;
  readonly macdSignal: number | null;
  readonly macdHistogram: number | null;
  readonly realizedVolPct: number | null;
  /** Last bar's volume / mean volume of the 24 bars before it. */
  readonly volumeRatio: number | null;
}

export const RSI_PERIOD = 14;
export const EMA_PERIOD = 200;
export const MACD_FAST = 12;
export const MACD_SLOW = 26;
export const MACD_SIGNAL = 9;
export const VOLUME_RATIO_BARS = 24;

/**
 * The technical indicator set of one asset on one interval, fed bar by bar (streaming: each
 * closed bar costs O(1), nothing is recomputed from the start). Bars must arrive in time order.
 */
export class TechnicalIndicators {
  private readonly rsi = new RSI(RSI_PERIOD);
  private readonly ema = new EMA(EMA_PERIOD);
  private readonly macdInd = new MACD(new EMA(MACD_FAST), new EMA(MACD_SLOW), new EMA(MACD_SIGNAL));
  private readonly rvol = new RVOL(VOLUME_RATIO_BARS);
  private readonly vol: RealizedVolatility;
  private lastT = Number.NEGATIVE_INFINITY;

  constructor(realizedVolWindow = 720) {
    this.vol = new RealizedVolatility(realizedVolWindow);
  }

  update(bar: Candle): TechnicalValues {
    if (bar.t <= this.lastT) throw new RangeError(`bars must be in time order: ${bar.t} after ${this.lastT}`);
    this.lastT = bar.t;
    const rsi14 = this.rsi.add(bar.c);
    this.ema.add(bar.c);
    const ema200 = this.ema.isStable ? this.ema.getResultOrThrow() : null;
    const macd = this.macdInd.add(bar.c);
    const volumeRatio = this.rvol.add(bar.v);
    const realizedVolPct = this.vol.update(bar.c);
    return {
      t: bar.t,
      close: bar.c,
      rsi14,
      ema200,
      ema200DistancePct: ema200 === null || ema200 === 0 ? null : ((bar.c - ema200) / ema200) * 100,
      macd: macd?.macd ?? null,
      macdSignal: macd?.signal ?? null,
      macdHistogram: macd?.histogram ?? null,
      realizedVolPct,
      volumeRatio,
    };
  }
}
