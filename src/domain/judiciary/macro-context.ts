import type { Evidence } from "./score-readings.js";

export type MacroAssessment = "RISK_ON" | "NEUTRAL" | "RISK_OFF";

/** DECISIONS 4 macro_context: assessment, the macro key that moved it most, one-sentence risk. */
export interface MacroContext {
  readonly assessment: MacroAssessment;
  readonly key_driver: string;
  readonly primary_risk: string;
}

const MACRO_KEYS = ["US10Y", "DXY", "GOLD", "BTC_NASDAQ_CORR"] as const;

const RISK_SENTENCE: Readonly<Record<string, string>> = {
  US10Y: "Rising Treasury yields tighten financial conditions and pull money away from risk assets.",
  DXY: "A stronger US dollar historically weighs on crypto prices.",
  GOLD: "A flight to gold would signal investors seeking safety over risk.",
  BTC_NASDAQ_CORR: "BTC trading in step with equities exposes it to a stock-market sell-off.",
};

/**
 * Macro picture from the macro signals' evidence: the mean lean of the live macro signals above
 * +0.25 is RISK_ON, below -0.25 RISK_OFF, else NEUTRAL. The key driver is the macro signal with
 * the largest absolute lean; null when no macro signal is live, since nothing can be said. The
 * primary risk names what leans against risk now (the most bearish macro signal): the key driver's
 * own sentence had told of a stronger dollar while the dollar was the one leaning bullish.
 */
export function macroContext(evidence: readonly Evidence[]): MacroContext | null {
  const macro = evidence.filter((e) => (MACRO_KEYS as readonly string[]).includes(e.key) && e.status !== "DEAD");
  if (macro.length === 0) return null;
  const leaning = macro.filter((e) => e.contribution !== 0);
  const mean = leaning.length === 0 ? 0 : leaning.reduce((s, e) => s + e.contribution, 0) / leaning.length;
  const assessment: MacroAssessment = mean > 0.25 ? "RISK_ON" : mean < -0.25 ? "RISK_OFF" : "NEUTRAL";
  let driver = macro[0] as Evidence;
  for (const e of macro) if (Math.abs(e.contribution) > Math.abs(driver.contribution)) driver = e;
  let worst: Evidence | null = null;
  for (const e of macro) if (e.contribution < 0 && (worst === null || e.contribution < worst.contribution)) worst = e;
  const primary_risk =
    assessment === "RISK_ON" || worst === null
      ? `Macro supports risk, but a reversal in ${driver.key} would remove that tailwind.`
      : (RISK_SENTENCE[worst.key] ?? "Macro conditions are mixed.");
  return { assessment, key_driver: driver.key, primary_risk };
}
