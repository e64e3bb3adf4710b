import type { Regime, TaoRuling } from "../market/vocabulary.js";
import type { Asset } from "../signals/signal-keys.js";
import type { MacroContext } from "./macro-context.js";
import type { Coverage, Evidence } from "./score-readings.js";
import type { CalibrationKind } from "../calibration/calibration-map.js";

/** How a published confidence was obtained (issue 16). */
export interface ConfidenceBasis {
  readonly kind: CalibrationKind;
  readonly horizonHours: number;
  /** Market time the map was fitted at (outcomes matured by then only). */
  readonly fittedAt: number;
  readonly outcomes: number;
  readonly baseRate: number;
  /**
   * True for a session the language model voted in: its scores have no graded outcomes of their
   * own yet, so the map's base rate stands in (the judiciary-mode fit does not apply to them).
   */
  readonly awaitingModelOutcomes?: boolean;
  /** True when the map was fitted on the sessions (or votes) the language model answered in. */
  readonly modelOutcomes?: boolean;
}

/** One Judiciary Engine evaluation of one asset at one moment. */
export interface JudiciaryVerdict {
  readonly asset: Asset;
  /** BTC, ETH, TAO: the seven-value scale; SOL: its own set (AVOID instead of SELL). */
  readonly ruling: TaoRuling;
  /** Composite in [-100, 100], positive bullish (DECISIONS 4). */
  readonly score: number;
  /** Calibrated once published (see `calibration`); the engine's own figure before. */
  readonly confidence: number;
  /** The engine's coverage-and-agreement figure; set once calibrated. Absent on verdicts stored before issue 16. */
  readonly rawConfidence?: number;
  readonly calibration?: ConfidenceBasis;
  readonly regime: Regime | null;
  readonly coverage: Coverage;
  /** Every input with its lean and reason, in rule-table order. */
  readonly evidence: readonly Evidence[];
  /** Up to three sentences naming the signals that moved the score most. */
  readonly drivers: readonly string[];
  /** One plain sentence a trader can read without the evidence table. */
  readonly summary: string;
  readonly macroContext: MacroContext | null;
}

/** `verdict.new` data (SPEC Events): BTC's verdict only, per DECISIONS 7. */
export interface VerdictNewData {
  readonly ruling: string;
  readonly composite_score: number;
  readonly confidence: number;
  readonly regime: string;
}

/**
 * Event payload of a verdict. SPEC types `regime` as a string; before the first regime
 * detection there is none, and "UNKNOWN" says so without inventing one.
 */
export function verdictNewData(v: JudiciaryVerdict): VerdictNewData {
  return { ruling: v.ruling, composite_score: v.score, confidence: v.confidence, regime: v.regime ?? "UNKNOWN" };
}
