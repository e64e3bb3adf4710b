import type { Regime } from "../market/vocabulary.js";

/**
 * Flow signals from the market-data layer that the price features cannot see. null = the
 * signal is DEAD (no live reading), which the label then reports in sub_regime.
 */
export interface FlowContext {
  /** ENTITY_PRESSURE: 7-day sum of US spot BTC ETF net flows, USD millions. */
  readonly entityPressure: number | null;
  /** WHALE_FLOW, when a live source exists (none in replay). */
  readonly whaleFlow: number | null;
}

export const DEAD_FLOWS: FlowContext = { entityPressure: null, whaleFlow: null };

export interface FlowLabel {
  readonly regime: Regime;
  /** Why the label is what it is, for sub_regime (null when flows played no part). */
  readonly note: string | null;
}

/**
 * Splits ACCUMULATION into whale (large-entity) and stealth accumulation with flow data: net
 * inflows (ETF entity pressure or whale flow > 0) make it WHALE_ACCUMULATION. DISTRIBUTION is
 * annotated with confirming outflows. When both flow signals are DEAD the price-only label
 * stands and says so.
 */
export function withFlowContext(base: Regime, flows: FlowContext): FlowLabel {
  if (base !== "ACCUMULATION" && base !== "DISTRIBUTION") return { regime: base, note: null };
  const live = [flows.entityPressure, flows.whaleFlow].filter((x): x is number => x !== null && Number.isFinite(x));
  if (live.length === 0) return { regime: base, note: "FLOW_SIGNALS_DEAD" };
  const net = live.reduce((a, b) => a + b, 0);
  if (base === "ACCUMULATION") return net > 0 ? { regime: "WHALE_ACCUMULATION", note: "ENTITY_INFLOWS" } : { regime: base, note: "STEALTH" };
  return { regime: base, note: net < 0 ? "ENTITY_OUTFLOWS" : "FLOWS_DIVERGE" };
}
