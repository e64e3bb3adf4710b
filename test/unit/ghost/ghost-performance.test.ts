import { describe, expect, it } from "vitest";
import { assetPerformance } from "../../../src/application/ghost-performance.js";
import type { OpenPosition } from "../../../src/domain/ghost/trade.js";
import { STANDING_ASIDE } from "../../../src/domain/ghost/trader-performance.js";
import type { SprintMark } from "../../../src/domain/ghost/sprints.js";
import type { Candle } from "../../../src/domain/signals/reading.js";
import type { GhostSnapshot } from "../../../src/store/ports/ghost-ledger.js";
import { closedTrade } from "../../support/ghost-trades.js";
import { openSqliteStore } from "../../../src/store/sqlite/sqlite-store.js";

const H = 3_600_000;
const MARK = Date.UTC(2026, 3, 1);
const NOW = MARK + 48 * H;

/** An open BTC position entered at `entryTime` (0.1 unit at 1,000: 100 USD, nothing sold yet). */
function position(entryTime: number): OpenPosition {
  const { exitTime: _x, exitPrice: _p, exitReason: _r, pnlUsd: _u, pnlPct: _c, tp1PnlUsd: _t, result: _s, valid: _v, ...entry } = closedTrade("BTC", entryTime, 1);
  return { ...entry, remaining: entry.size, stopLoss: 970, tp1Hit: false, hwm: null, fills: [] };
}

function snapshotWith(pos: OpenPosition): GhostSnapshot {
  return {
    asset: "BTC",
    at: NOW,
    barT: NOW - H,
    status: "IN_POSITION",
    position: pos,
    gates: null,
    liquidity: { status: "UNKNOWN", depthUsd: null, live: false },
    price: 1000,
    rsi1h: 50,
    ema200: 990,
    regime: null,
  };
}

/**
 * A sprint started at MARK, no closed trade in it, and the trader's snapshot holding `pos`, in
 * the real ledger (SQLite in memory) as the service writes them.
 */
async function sprintHolding(pos: OpenPosition) {
  const store = openSqliteStore(":memory:");
  try {
    const mark: SprintMark = { id: "launch", scope: "ALL", at: MARK, reason: "launch", recordedAt: new Date(MARK).toISOString() };
    await store.ghostLedger.addSprint(mark);
    await store.ghostLedger.saveSnapshot(snapshotWith(pos));
    const candles: Candle[] = Array.from({ length: 48 }, (_, i) => ({ t: MARK + i * H, o: 1000, h: 1001, l: 999, c: 1000, v: 1 }));
    const feed = { candles: () => candles };
    return await assetPerformance(store.ghostLedger, feed, "BTC", NOW);
  } finally {
    await store.close();
  }
}

describe("Ghost performance over the sprint with a position held", () => {
  it("a position carried over from before the restart is held, not standing aside (and not counted)", async () => {
    const p = await sprintHolding(position(MARK - 10 * H));
    expect(p.standingAside).toBe(false);
    expect(p.note).not.toBe(STANDING_ASIDE);
    expect(p.exposurePct).toBe(0);
  });

  it("a position opened in the sprint counts in its exposure up to now", async () => {
    const p = await sprintHolding(position(MARK + 24 * H));
    expect(p.standingAside).toBe(false);
    expect(p.exposurePct).toBe(50);
    // 100 USD for 24 h against 10,000 USD over 48 h.
    expect(p.benchmarks.buyAndHold!.capitalExposurePct).toBeCloseTo(0.5, 4);
  });
});
