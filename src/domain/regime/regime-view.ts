import type { RegimeView } from "../ghost/bar-input.js";
import type { RegimeReport } from "./regime-report.js";

/**
 * What another engine needs of a stored regime evaluation (the Ghost Traders' regime gate and
 * quality score): the published regime, its confidence and the breakout flag. Takes anything
 * carrying a report (a StoredRegime from RegimeHistoryRepository.latestAtOrBefore) or null
 * (no evaluation yet: the gate then fails rather than guessing a regime).
 */
export function regimeViewOf(stored: { readonly report: RegimeReport } | null): RegimeView | null {
  if (stored === null) return null;
  const { regime, confidence, breakoutImminent } = stored.report;
  return { regime, confidence, breakoutImminent };
}
