import { MAX_HOLD_MS } from "../ghost/exit-levels.js";
import type { EntryOutcome } from "../ghost/random-entry.js";

/**
 * The no-skill baseline a Ghost trade is graded against (issue 16, DECISIONS 7 "Signal weights"):
 * the share of random entries that won with the same exits and costs over the LOOKBACK before
 * the trade's entry. Only entries already closed at that moment count (entered at least the
 * longest hold earlier, and really exited: not marked to market where the bars read ran out), so
 * the grade of a trade never uses what came after it was entered.
 */
export const BASELINE_LOOKBACK_MS = 90 * 86_400_000;
/** Fewer resolved random entries than this (under ~a week of bars) make no baseline. */
export const MIN_BASELINE_ENTRIES = 168;
/** A coin flip: what the baseline is when the asset's history is too short to measure one. */
export const COIN_FLIP = 0.5;

/**
 * The baseline, or null when fewer than MIN_BASELINE_ENTRIES random entries resolved in the
 * lookback: the caller grades against COIN_FLIP then, and keeps nothing, so a trade graded before
 * its bars were there (a live feed that has not polled yet) gets its baseline once they are.
 */
export function exitBaseline(outcomes: readonly EntryOutcome[], entryTime: number): number | null {
  const from = entryTime - BASELINE_LOOKBACK_MS;
  const to = entryTime - MAX_HOLD_MS;
  let n = 0;
  let wins = 0;
  for (const o of outcomes) {
    if (o.entryTime < from || o.entryTime >= to || o.exitTime > entryTime || o.markedToMarket === true) continue;
    n += 1;
    if (o.pnlUsd > 0) wins += 1;
  }
  return n < MIN_BASELINE_ENTRIES ? null : wins / n;
}
