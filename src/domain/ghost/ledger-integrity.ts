import { sumPnl } from "./close-trade.js";
import { roundPct } from "./money.js";
import { trackRecordStats, type TrackRecordStats } from "./track-record-stats.js";
import { counts } from "./trade-validity.js";
import type { ClosedTrade, OpenPosition } from "./trade.js";

/**
 * The ledger integrity checks behind `tests_passing` (DECISIONS 4). Each is a named predicate
 * over the stored ledger; `tests_passing` is how many hold right now, so a corrupted row shows as
 * a lower number instead of silently skewing the published stats.
 */
export interface LedgerSnapshot {
  readonly closed: readonly ClosedTrade[];
  readonly open: readonly OpenPosition[];
  readonly sinceMs: number;
  /** Stats as stored/cached for publication, per asset; checked against a recomputation. */
  readonly storedStats: Readonly<Record<string, TrackRecordStats>>;
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
    name: "every amount is a finite number and prices are positive",
    holds: (l) =>
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
    name: "no two open positions per asset",
    holds: (l) => new Set(l.open.map((p) => p.asset)).size === l.open.length,
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
      Object.entries(l.storedStats).every(([asset, stored]) => {
        const fresh = trackRecordStats(l.closed.filter((t) => t.asset === asset && t.valid && counts(t, l.sinceMs)));
        return JSON.stringify(fresh) === JSON.stringify(stored);
      }),
  },
];

export function integrityChecks(ledger: LedgerSnapshot): IntegrityCheck[] {
  return INTEGRITY_CHECKS.map((c) => ({ name: c.name, passed: safe(() => c.holds(ledger)) }));
}

export function testsPassing(ledger: LedgerSnapshot): number {
  return integrityChecks(ledger).filter((c) => c.passed).length;
}

/** A check that throws on a malformed row counts as failed, never as an error response. */
function safe(f: () => boolean): boolean {
  try {
    return f();
  } catch {
    return false;
  }
}
