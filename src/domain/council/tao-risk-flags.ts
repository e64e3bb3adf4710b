import type { FeatureReading } from "../judiciary/feature-reading.js";

export const TAO_RISK_FLAGS = [
  "LIQUIDITY_RISK",
  "MANIPULATION_RISK",
  "INSUFFICIENT_DATA",
  "ETF_EVENT_WINDOW",
  "CENTRALIZED_AI_OVERHANG",
  "INSTITUTIONAL_REBAL",
] as const;
export type TaoRiskFlag = (typeof TAO_RISK_FLAGS)[number];

export interface TaoFlagInputs {
  readonly at: number;
  readonly liquidityStatus: "SUFFICIENT" | "INSUFFICIENT" | "UNKNOWN";
  readonly lastHourRangePct: number | null;
  readonly volumeRatio: number | null;
  readonly hoursUntilTier1: number | null;
  readonly aiSentiment: { readonly value: number; readonly percentile20: number } | null;
  /** Every input key of the TAO agents, deduplicated. */
  readonly agentInputs: readonly string[];
  readonly readings: readonly FeatureReading[];
  /** The TAO agents that abstained because every one of their inputs was DEAD. */
  readonly agentsWithoutData: readonly string[];
}

/** True on the last two UTC calendar days of March, June, September and December. */
export function inQuarterEndWindow(at: number): boolean {
  const d = new Date(at);
  const month = d.getUTCMonth();
  if (month % 3 !== 2) return false;
  const daysInMonth = new Date(Date.UTC(d.getUTCFullYear(), month + 1, 0)).getUTCDate();
  return d.getUTCDate() >= daysInMonth - 1;
}

/** The TAO risk flags of DECISIONS 7, each from its own condition, in vocabulary order. */
export function taoRiskFlags(x: TaoFlagInputs): TaoRiskFlag[] {
  const flags = new Set<TaoRiskFlag>();
  if (x.liquidityStatus === "INSUFFICIENT") flags.add("LIQUIDITY_RISK");
  if (x.lastHourRangePct !== null && x.volumeRatio !== null && x.lastHourRangePct > 8 && x.volumeRatio > 3) flags.add("MANIPULATION_RISK");
  const live = new Set(x.readings.filter((r) => r.status === "LIVE" && r.value !== null).map((r) => r.key));
  const liveInputs = x.agentInputs.filter((k) => live.has(k)).length;
  // DECISIONS 7 names two causes: under half of the inputs live, or an agent with no data at all.
  if (liveInputs * 2 < x.agentInputs.length || x.agentsWithoutData.length > 0) flags.add("INSUFFICIENT_DATA");
  if (x.hoursUntilTier1 !== null && x.hoursUntilTier1 >= 0 && x.hoursUntilTier1 <= 24) flags.add("ETF_EVENT_WINDOW");
  // Raised only from a real AI-sector sentiment source; without one it is never guessed.
  if (x.aiSentiment !== null && x.aiSentiment.value < x.aiSentiment.percentile20) flags.add("CENTRALIZED_AI_OVERHANG");
  if (inQuarterEndWindow(x.at)) flags.add("INSTITUTIONAL_REBAL");
  return TAO_RISK_FLAGS.filter((f) => flags.has(f));
}
