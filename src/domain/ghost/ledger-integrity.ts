import { sumPnl } from "./close-trade.js";
import { roundPct } from "./money.js";
import type { Asset } from "../signals/signal-keys.js";
import { trackRecordStats } from "./track-record-stats.js";
import { counts } from "./trade-validity.js";
import type { ClosedTrade, OpenPosition } from "./trade.js";

/**
 * The ledger integrity checks behind `tests_passing` (DECISIONS 4). Each is a named predicate
 * over the stored ledger; `tests_passing` is how many hold right now, so a corrupted row shows as
 * a lower number instead of silently skewing the published stats.
 */
export interface LedgerSnapshot {
  /** Every stored closed trade (all assets, all sprints) closed by now. */
  readonly closed: readonly ClosedTrade[];
  /**
   * Stored rows that did not read back: trades (left out of `closed`) and trader statuses (whose
   * open position, if any, is then missing from `open`).
   */
  readonly unreadable: number;
  readonly open: readonly OpenPosition[];
  /** Each asset's own track-record cutoff (DECISIONS 7 "Track-record restart"). */
  readonly cutoffs: Readonly<Record<Asset, number>>;
  /**
   * What each asset's track record publishes: the counted trades of the store's per-asset read.
   * The check recomputes them from the whole-ledger read, so an index, a column or a query that
   * disagrees with the stored rows shows here instead of in a published figure.
   */
  readonly published: Readonly<Partial<Record<Asset, readonly ClosedTrade[]>>>;
}

export interface IntegrityCheck {
  readonly name: string;
  readonly passed: boolean;
}

const EPS_USD = 0.005;

export const INTEGRITY_CHECKS: readonly { name: string; holds: (l: LedgerSnapshot) => boolean }[] = [
  {
    name: "closed trade P&L equals the sum of its fills",
    holds: (l) => l.closed.every((t) => t.fills.length > 0 && Math.abs(sumPnl(t.fills) - t.pnlUsd) < EPS_USD),
  },
  {
    name: "fills sell exactly the size bought",
    holds: (l) => l.closed.every((t) => Math.abs(t.fills.reduce((s, f) => s + f.size, 0) - t.size) < 1e-7),
  },
  {
    name: "result is WIN exactly when P&L > 0",
    holds: (l) => l.closed.every((t) => (t.pnlUsd > 0) === (t.result === "WIN")),
  },
  {
    name: "pnlPct is P&L over position cost",
    holds: (l) => l.closed.every((t) => Math.abs(roundPct((t.pnlUsd / (t.entryPrice * t.size)) * 100) - t.pnlPct) < 1e-3),
  },
  {
    // A row the store keeps with a non-finite amount or a price of 0 does not read back as a
    // trade (the ledger schema refuses it), so this check counts such rows as well, and a trader
    // status that does not read back (its open position is then unknown to the other checks).
    name: "every stored trade and trader status reads back, its amounts finite and prices positive",
    holds: (l) =>
      l.unreadable === 0 &&
      l.closed.every(
        (t) =>
          [t.pnlUsd, t.pnlPct, t.size, t.entryFeeUsd].every(Number.isFinite) && t.entryPrice > 0 && t.exitPrice > 0 && t.size > 0,
      ),
  },
  {
    name: "exit is not before entry",
    holds: (l) => l.closed.every((t) => t.exitTime >= t.entryTime),
  },
  {
    name: "one position at a time per asset",
    holds: (l) => oneAtATime(l.closed, l.open),
  },
  {
    name: "trade ids are unique",
    holds: (l) => new Set([...l.closed, ...l.open].map((t) => t.id)).size === l.closed.length + l.open.length,
  },
  {
    name: "valid trades are live paper trades",
    holds: (l) => l.closed.every((t) => !t.valid || t.origin === "live_paper"),
  },
  {
    name: "published stats recompute from the counted trades",
    holds: (l) =>
      Object.entries(l.published).every(([asset, published]) => {
        const fresh = l.closed.filter((t) => t.asset === asset && t.valid && counts(t, l.cutoffs[asset as Asset]));
        const ids = (ts: readonly ClosedTrade[]) => ts.map((t) => t.id).sort().join(",");
        return (
          published.every((t) => t.asset === asset) &&
          ids(published) === ids(fresh) &&
          JSON.stringify(trackRecordStats(published)) === JSON.stringify(trackRecordStats(fresh))
        );
      }),
  },
];

/**
 * A Ghost Trader holds one LONG position at most, so an asset's trades never overlap in time: each
 * entry is at or after the previous exit, and an open position comes after every close. Two
 * writers trading one asset (a split-brain replica, a replayed turn under a new id) break this.
 */
function oneAtATime(closed: readonly ClosedTrade[], open: readonly OpenPosition[]): boolean {
  const spans = [
    ...closed.map((t) => ({ asset: t.asset, from: t.entryTime, to: t.exitTime })),
    ...open.map((p) => ({ asset: p.asset, from: p.entryTime, to: Number.POSITIVE_INFINITY })),
  ].sort((a, b) => a.asset.localeCompare(b.asset) || a.from - b.from || a.to - b.to);
  return spans.every((s, i) => {
    const prev = spans[i - 1];
    return prev === undefined || prev.asset !== s.asset || s.from >= prev.to;
  });
}

export function integrityChecks(ledger: LedgerSnapshot): IntegrityCheck[] {
  return INTEGRITY_CHECKS.map((c) => ({ name: c.name, passed: safe(() => c.holds(ledger)) }));
}

export function testsPassing(ledger: LedgerSnapshot): number {
  return passedCount(integrityChecks(ledger));
}

/** `tests_passing` from checks already run (the caller read the ledger until they settled). */
export function passedCount(checks: readonly IntegrityCheck[]): number {
  return checks.filter((c) => c.passed).length;
}

/** A check that throws on a malformed row counts as failed, never as an error response. */
function safe(f: () => boolean): boolean {
  try {
    return f();
  } catch {
    return false;
  }
}
