import type { SignalStatus } from "./signal-keys.js";

/** The flows DECISIONS 7 feeds into the institutional-flow composite. */
export const DARK_POOL_KEYS = ["ENTITY_PRESSURE", "STABLECOIN_MINT", "WHALE_FLOW"] as const;
export type DarkPoolKey = (typeof DARK_POOL_KEYS)[number];

export interface DarkPoolInput {
  readonly key: DarkPoolKey;
  readonly status: SignalStatus;
  /** The current value. */
  readonly latest: number | null;
  /** The signal's readings over the last 90 days (the z-score's reference window). */
  readonly history: readonly number[];
}

/** Fewer points than this make a 90-day z-score meaningless (a daily flow has ~60-90). */
export const MIN_HISTORY_POINTS = 10;

function zScore(latest: number, history: readonly number[]): number | null {
  if (history.length < MIN_HISTORY_POINTS) return null;
  const mean = history.reduce((a, b) => a + b, 0) / history.length;
  const variance = history.reduce((a, b) => a + (b - mean) ** 2, 0) / history.length;
  return variance > 0 ? (latest - mean) / Math.sqrt(variance) : null;
}

/**
 * dark_pool = 50 + 50·tanh(mean z-score over 90 days of the LIVE flows), an int in 0..100;
 * 0 when no flow is live or none has enough history (SPEC: "0 if unavailable").
 */
export function darkPoolComposite(inputs: readonly DarkPoolInput[]): number {
  const zs = inputs
    .filter((i) => i.status === "LIVE" && i.latest !== null)
    .map((i) => zScore(i.latest as number, i.history))
    .filter((z): z is number => z !== null);
  if (zs.length === 0) return 0;
  const meanZ = zs.reduce((a, b) => a + b, 0) / zs.length;
  return Math.min(100, Math.max(0, Math.round(50 + 50 * Math.tanh(meanZ))));
}
