import { describe, expect, it } from "vitest";
import { EARLY_FIRING_TOLERANCE_MS, firedEarly, nextTurnAt, slotAt, slotsToMake } from "../../../src/domain/market/turn-slots.js";
import { turnOffsets } from "../../../src/composition/turn-order.js";

const MIN = 60_000;
const SLOT = Date.UTC(2026, 2, 1, 10, 0);
const PERIOD = 5 * MIN;
const OFFSET = 30_000;

describe("turn slots", () => {
  it("makes every slot a late turn skipped since the last one, oldest first, up to a bound", () => {
    expect(slotsToMake(null, SLOT, PERIOD, 12)).toEqual([SLOT]);
    expect(slotsToMake(SLOT - PERIOD, SLOT, PERIOD, 12)).toEqual([SLOT]);
    // The turn of SLOT − PERIOD ran too late to be about it: this turn makes it first.
    expect(slotsToMake(SLOT - 2 * PERIOD, SLOT, PERIOD, 12)).toEqual([SLOT - PERIOD, SLOT]);
    // Beyond the bound (an outage), only the newest `max` slots.
    expect(slotsToMake(SLOT - 100 * PERIOD, SLOT, PERIOD, 3)).toEqual([SLOT - 2 * PERIOD, SLOT - PERIOD, SLOT]);
  });

  it("schedules the next turn offset after a slot, and a turn at its time is about that slot", () => {
    expect(nextTurnAt(SLOT, PERIOD, OFFSET)).toBe(SLOT + OFFSET);
    expect(nextTurnAt(SLOT + OFFSET, PERIOD, OFFSET)).toBe(SLOT + OFFSET);
    expect(nextTurnAt(SLOT + OFFSET + 1, PERIOD, OFFSET)).toBe(SLOT + PERIOD + OFFSET);
    expect(slotAt(SLOT + OFFSET, PERIOD, OFFSET)).toBe(SLOT);
    // Fired late (a warm-up step, a slow sidecar): still the slot it was due for, up to a period
    // less the tolerance for early firings (past that it reads as the next slot's, a little early).
    expect(slotAt(SLOT + PERIOD + OFFSET - EARLY_FIRING_TOLERANCE_MS - 1, PERIOD, OFFSET)).toBe(SLOT);
    expect(slotAt(SLOT + PERIOD + OFFSET - EARLY_FIRING_TOLERANCE_MS, PERIOD, OFFSET)).toBe(SLOT + PERIOD);
  });

  it("takes a turn that fires a little early (a drifted Dapr schedule) as its coming slot's, and says so", () => {
    const early = SLOT + OFFSET - 3_000;
    expect(slotAt(early, PERIOD, OFFSET)).toBe(SLOT);
    expect(firedEarly(early, PERIOD, OFFSET)).toBe(true);
    expect(firedEarly(SLOT + OFFSET, PERIOD, OFFSET)).toBe(false);
    // Earlier than the tolerance: the slot before, as before its turn.
    expect(slotAt(SLOT + OFFSET - EARLY_FIRING_TOLERANCE_MS - 1, PERIOD, OFFSET)).toBe(SLOT - PERIOD);
  });

  it("runs the traders after the close's other turns, with room for an early firing between them", () => {
    for (const settle of [0, 2 * MIN]) {
      const o = turnOffsets(settle);
      expect(o.regime).toBe(settle);
      expect(o.verdict).toBe(o.regime);
      expect(o.council).toBe(o.verdict);
      expect(o.trader - EARLY_FIRING_TOLERANCE_MS).toBeGreaterThan(o.verdict);
    }
  });
});
