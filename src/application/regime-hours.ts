import { forwardReturn, indexAtOrBefore, type PricePath } from "../domain/calibration/price-path.js";
import type { RegimeHour } from "../domain/evaluation/regime-evaluation.js";
import type { StoredRegime } from "../store/ports/regime-history.js";

const HOUR = 3_600_000;
const ANNUAL = Math.sqrt(24 * 365);

/** Realised volatility of the 24 hourly log returns ending at index `end`, annualised %, or null. */
function realisedVolPct(prices: PricePath, end: number): number | null {
  if (end < 24) return null;
  let s = 0;
  let s2 = 0;
  for (let i = end - 23; i <= end; i++) {
    const r = Math.log(prices.closeAt(i) / prices.closeAt(i - 1));
    s += r;
    s2 += r * r;
  }
  const variance = (s2 - (s * s) / 24) / 23;
  return Math.sqrt(Math.max(0, variance)) * ANNUAL * 100;
}

/** The published regimes with the BTC volatility before and the move and volatility after, as known at `knownAt`. */
export function regimeHoursFrom(published: readonly StoredRegime[], btc: PricePath, knownAt: number): RegimeHour[] {
  const out: RegimeHour[] = [];
  for (const p of published) {
    const i = indexAtOrBefore(btc, p.at);
    const trailing = i < 0 ? null : realisedVolPct(btc, i);
    if (trailing === null) continue;
    const j = indexAtOrBefore(btc, p.at + 24 * HOUR);
    const matured = p.at + 24 * HOUR <= knownAt && j - i === 24;
    out.push({
      at: p.at,
      regime: p.report.regime,
      trailingVolPct: trailing,
      forwardVolPct: matured ? realisedVolPct(btc, j) : null,
      forwardReturn: forwardReturn(btc, p.at, 24 * HOUR, knownAt),
    });
  }
  return out;
}
