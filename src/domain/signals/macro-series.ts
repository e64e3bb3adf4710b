/** Daily cross-asset series behind GET /v1/macro/correlation and the macro alert formulas. */
export const MACRO_SERIES_KEYS = ["US10Y", "DXY", "GOLD", "NASDAQ", "VIX", "FED_FUNDS"] as const;
export type MacroSeriesKey = (typeof MACRO_SERIES_KEYS)[number];

export interface MacroSeriesPoint {
  readonly key: MacroSeriesKey;
  readonly value: number;
  readonly observedAt: number;
  /** The previous observation (the previous trading day for US series), or null. */
  readonly previousValue: number | null;
  /** Pearson of the last 30 paired daily returns with BTC; null when not computable. */
  readonly correlation30d: number | null;
}
