export const STRENGTHS = ["STRONG", "MODERATE", "WEAK"] as const;
export type Strength = (typeof STRENGTHS)[number];

/** Confidence bands of `strength`; 0.6 matches the hysteresis threshold of DECISIONS 4. */
export const STRONG_CONFIDENCE = 0.8;
export const MODERATE_CONFIDENCE = 0.6;

export function strengthOf(confidence: number): Strength {
  if (confidence >= STRONG_CONFIDENCE) return "STRONG";
  if (confidence >= MODERATE_CONFIDENCE) return "MODERATE";
  return "WEAK";
}

/** SPEC.md: true when the regime is LOW_VOLATILITY and confidence ≥ 0.70. */
export const BREAKOUT_CONFIDENCE = 0.7;

export function breakoutImminent(regime: string, confidence: number): boolean {
  return regime === "LOW_VOLATILITY" && confidence >= BREAKOUT_CONFIDENCE;
}
