import type { ClosedTrade, OpenPosition } from "./trade.js";
import { counts } from "./trade-validity.js";
import type { Asset } from "../signals/signal-keys.js";

/** One track-record period start (DECISIONS 7 `ghost restart`); the first is written at launch. */
export interface SprintMark {
  readonly id: string;
  /** The asset restarted, or ALL. */
  readonly scope: Asset | "ALL";
  /** Market time the period starts (trades entered before it stop counting). */
  readonly at: number;
  readonly reason: string;
  /** Wall-clock time of the operator's command. */
  readonly recordedAt: string;
}

/**
 * Track-record periods (DECISIONS 7 `ghost restart`). A mark applies to its asset or to ALL; an
 * asset's cutoff is its newest applicable mark. The published `since` is the newest mark of all
 * and `sprint` counts the marks (the launch mark is sprint 1), as DECISIONS 4 defines it.
 */
export function sinceFor(asset: Asset, marks: readonly SprintMark[]): number {
  return marks.filter((m) => m.scope === "ALL" || m.scope === asset).reduce((s, m) => Math.max(s, m.at), 0);
}

/**
 * The mark that opened the asset's current period: the last applicable one in the ledger's order
 * (market time, then the operator's wall time). Two marks at one market instant (a replay whose
 * clock stopped at the end of its data) are still ordered, which `sinceFor` alone cannot tell.
 */
export function periodMarkFor(asset: Asset, marks: readonly SprintMark[]): SprintMark | null {
  return marks.filter((m) => m.scope === "ALL" || m.scope === asset).at(-1) ?? null;
}

export function currentSprint(marks: readonly SprintMark[]): { sprint: number; sinceMs: number } {
  return { sprint: Math.max(1, marks.length), sinceMs: marks.reduce((s, m) => Math.max(s, m.at), 0) };
}

/**
 * The one cutoff of an endpoint that aggregates several assets (`/v1/ghost/stats`,
 * `/v1/regime/stats`): the latest restart among the assets it covers, reported as its `since`;
 * every covered asset's trades count from it (DECISIONS 7 "Track-record restart").
 */
export function sharedCutoff(assets: readonly Asset[], marks: readonly SprintMark[]): number {
  return assets.reduce((s, a) => Math.max(s, sinceFor(a, marks)), 0);
}

/** Closed trades that count under their own asset's cutoff (valid live paper trades). */
export function countedUnderSprints(trades: readonly ClosedTrade[], marks: readonly SprintMark[]): ClosedTrade[] {
  return trades.filter((t) => t.valid && counts(t, sinceFor(t.asset, marks)));
}

export function openUnderSprints(open: readonly OpenPosition[], marks: readonly SprintMark[]): OpenPosition[] {
  return open.filter((p) => counts(p, sinceFor(p.asset, marks)));
}
