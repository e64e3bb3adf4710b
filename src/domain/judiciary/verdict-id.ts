import type { Asset } from "../signals/signal-keys.js";

/**
 * Stable per asset and evaluation time, so a retried VerdictActor turn rewrites the same row and
 * the engine backtest names its verdicts as the service does.
 */
export function verdictId(asset: Asset, at: number): string {
  return `${asset}-${new Date(at).toISOString()}`;
}
