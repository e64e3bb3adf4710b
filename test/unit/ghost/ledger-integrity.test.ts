import { describe, expect, it } from "vitest";
import { integrityChecks, INTEGRITY_CHECKS, testsPassing, type LedgerSnapshot } from "../../../src/domain/ghost/ledger-integrity.js";
import { countedClosed } from "../../../src/domain/ghost/trade-validity.js";
import type { ClosedTrade, OpenPosition } from "../../../src/domain/ghost/trade.js";
import { D0, DAY, trade } from "./ledger-fixture.js";

/** Four BTC trades a day apart (hold 2–8 h, never overlapping) and one SOL trade. */
const ledger = [
  trade({ exit: 150, entryTime: D0, holdHours: 2 }),
  trade({ exit: 80, entryTime: D0 + DAY, holdHours: 4 }),
  trade({ exit: 70, entryTime: D0 + 2 * DAY, holdHours: 6 }),
  trade({ exit: 200, entryTime: D0 + 3 * DAY, holdHours: 8 }),
  trade({ asset: "SOL", exit: 110, entryTime: D0 + DAY, holdHours: 3 }),
];
const cutoffs = { BTC: D0, ETH: D0, SOL: D0, TAO: D0 };

/** A ledger snapshot as readLedgerSnapshot builds it: each asset's published list counted under its own cutoff. */
function snapshotOf(closed: readonly ClosedTrade[], open: readonly OpenPosition[] = [], cut = cutoffs): LedgerSnapshot {
  const published = Object.fromEntries(
    (["BTC", "ETH", "SOL", "TAO"] as const).map((a) => [a, countedClosed(closed.filter((t) => t.asset === a), cut[a])]),
  );
  return { closed, unreadable: 0, open, cutoffs: cut, published };
}

function openFrom(t: ClosedTrade, entryTime: number, id: string): OpenPosition {
  const { exitTime: _e, exitPrice: _p, exitReason: _r, pnlUsd: _u, pnlPct: _c, tp1PnlUsd: _t, result: _s, valid: _v, fills: _f, ...entry } = t;
  return { ...entry, id, entryTime, remaining: entry.size, stopLoss: 97, tp1Hit: false, hwm: null, fills: [] };
}

function failing(s: LedgerSnapshot): string[] {
  return integrityChecks(s).filter((c) => !c.passed).map((c) => c.name);
}

const replaced = (i: number, t: ClosedTrade): ClosedTrade[] => ledger.map((x, j) => (j === i ? t : x));
const first = ledger[0]!;

describe("ledger integrity: tests_passing", () => {
  it("a clean ledger passes every check", () => {
    expect(testsPassing(snapshotOf(ledger))).toBe(INTEGRITY_CHECKS.length);
  });

  it("stays at 10/10 after a restart of one asset: published track records use each asset's own cutoff", () => {
    const restarted = { ...cutoffs, BTC: D0 + 2 * DAY };
    const s = snapshotOf(ledger, [], restarted);
    expect(s.published.BTC).toHaveLength(2);
    expect(s.published.SOL).toHaveLength(1);
    expect(testsPassing(s)).toBe(INTEGRITY_CHECKS.length);
  });

  // Each check, broken on its own: the corruption fails that check and no other.
  const cases: readonly [string, () => LedgerSnapshot][] = [
    ["closed trade P&L equals the sum of its fills", () => snapshotOf(replaced(0, { ...first, fills: [{ ...first.fills[0]!, pnlUsd: 49 }] }))],
    ["fills sell exactly the size bought", () => snapshotOf(replaced(0, { ...first, fills: [{ ...first.fills[0]!, size: first.size / 2 }] }))],
    ["result is WIN exactly when P&L > 0", () => snapshotOf(replaced(0, { ...first, result: "LOSS" }))],
    ["pnlPct is P&L over position cost", () => snapshotOf(replaced(0, { ...first, pnlPct: first.pnlPct + 1 }))],
    ["every stored trade and trader status reads back, its amounts finite and prices positive", () => snapshotOf(replaced(0, { ...first, entryFeeUsd: Number.NaN }))],
    ["exit is not before entry", () => snapshotOf(replaced(0, { ...first, exitTime: first.entryTime - 1 }))],
    ["one position at a time per asset", () => snapshotOf(ledger, [openFrom(first, ledger[3]!.entryTime + 3_600_000, "overlapping")])],
    ["trade ids are unique", () => snapshotOf(replaced(1, { ...ledger[1]!, id: first.id }))],
    ["valid trades are live paper trades", () => snapshotOf(replaced(0, { ...first, origin: "backfill" }))],
    ["published stats recompute from the counted trades", () => ({ ...snapshotOf(ledger), published: { ...snapshotOf(ledger).published, BTC: ledger.slice(1, 4) } })],
  ];

  it("has a breaking case for every check", () => {
    expect(cases.map(([name]) => name).sort()).toEqual(INTEGRITY_CHECKS.map((c) => c.name).sort());
  });

  it.each(cases)("can fail: %s", (name, broken) => {
    const s = broken();
    expect(failing(s)).toEqual([name]);
    expect(testsPassing(s)).toBe(INTEGRITY_CHECKS.length - 1);
  });

  it("a stored row that does not read back as a trade fails the same check, the rest reading clean", () => {
    expect(failing({ ...snapshotOf(ledger), unreadable: 1 })).toEqual(["every stored trade and trader status reads back, its amounts finite and prices positive"]);
  });

  it("one position at a time: two open positions of one asset fail, overlapping closed trades fail", () => {
    expect(failing(snapshotOf(ledger, [openFrom(first, D0 + 10 * DAY, "a"), openFrom(first, D0 + 11 * DAY, "b")]))).toEqual([
      "one position at a time per asset",
    ]);
    const overlap = trade({ exit: 120, entryTime: D0 + 2 * DAY + 3_600_000, holdHours: 1 });
    expect(failing(snapshotOf([...ledger, overlap]))).toEqual(["one position at a time per asset"]);
    // An open position after the last close, and another asset's trade at the same time, are fine.
    expect(failing(snapshotOf(ledger, [openFrom(first, D0 + 4 * DAY, "later")]))).toEqual([]);
  });

  it("a published track record holding another asset's trade fails the recomputation", () => {
    const s = snapshotOf(ledger);
    expect(failing({ ...s, published: { ...s.published, SOL: [...(s.published.SOL ?? []), first] } })).toEqual([
      "published stats recompute from the counted trades",
    ]);
  });

  it("a NaN row fails without throwing", () => {
    const nan = { ...first, pnlUsd: Number.NaN };
    expect(testsPassing(snapshotOf([nan]))).toBeLessThan(INTEGRITY_CHECKS.length);
  });
});
