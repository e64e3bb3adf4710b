import type { Asset } from "../signals/signal-keys.js";
import { rulesFor } from "./asset-rules.js";
import { judiciaryConfidence } from "./confidence.js";
import { unitMultiplier, type JudiciaryInput } from "./feature-reading.js";
import type { JudiciaryVerdict } from "./judiciary-verdict.js";
import { macroContext } from "./macro-context.js";
import { rulingForScore, solRulingForScore } from "./score-bands.js";
import { scoreReadings, type Evidence } from "./score-readings.js";

function drivers(evidence: readonly Evidence[]): string[] {
  return evidence
    .filter((e) => e.points !== 0)
    .sort((a, b) => Math.abs(b.points) - Math.abs(a.points) || a.key.localeCompare(b.key))
    .slice(0, 3)
    .map((e) => `${e.points > 0 ? "+" : ""}${e.points.toFixed(1)} points from ${e.reason}`);
}

/**
 * The Judiciary Engine: pure and deterministic. The same input always gives the same verdict;
 * time, storage and events belong to the caller (the verdict actor).
 */
export function evaluateJudiciary(asset: Asset, input: JudiciaryInput): JudiciaryVerdict {
  const scored = scoreReadings(input.readings, rulesFor(asset), input.regime, input.price, input.multiplier ?? unitMultiplier);
  const ruling = asset === "SOL" ? solRulingForScore(scored.score) : rulingForScore(scored.score);
  const confidence = judiciaryConfidence(scored.coverageRatio, scored.agreement);
  const { live, stale, total } = scored.coverage;
  const summary =
    live + stale === 0
      ? `${asset}: no live signals, so no view (HOLD with zero confidence).`
      : `${asset} ${ruling} at score ${scored.score.toFixed(1)} from ${live} live${stale > 0 ? ` and ${stale} stale` : ""} of ${total} signals` +
        `${input.regime === null ? "" : ` in a ${input.regime} regime`}; signals agree ${Math.round(scored.agreement * 100)}%.`;
  return {
    asset,
    ruling,
    score: scored.score,
    confidence,
    regime: input.regime,
    coverage: scored.coverage,
    evidence: scored.evidence,
    drivers: drivers(scored.evidence),
    summary,
    macroContext: macroContext(scored.evidence),
  };
}
