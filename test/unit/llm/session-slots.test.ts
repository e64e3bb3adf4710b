import { afterEach, describe, expect, it, vi } from "vitest";
import { SessionSlots } from "../../../src/llm/session-slots.js";

afterEach(() => {
  vi.useRealTimers();
});

/** One council slot as the councils meet it: BTC holds the model, TAO then SOL wait; returns who got it next, in order. */
async function round(slots: SessionSlots): Promise<string[]> {
  expect(await slots.acquire("BTC", 1_000)).toBe(true);
  const order: string[] = [];
  const waits = ["TAO", "SOL"].map((c) => slots.acquire(c, 60_000).then((g) => order.push(`${c} ${g}`)));
  expect(slots.queued).toBe(2);
  slots.release();
  await Promise.race(waits);
  slots.release();
  await Promise.all(waits);
  slots.release();
  return order;
}

describe("SessionSlots: how many council sessions use the model at once", () => {
  it("grants up to its size at once, then queues; waiters never served go in arrival order", async () => {
    const slots = new SessionSlots(1);
    // Neither waiter has been served: arrival order.
    expect(await round(slots)).toEqual(["TAO true", "SOL true"]);
    // Both served, TAO longer ago than SOL: TAO first again.
    expect(await round(slots)).toEqual(["TAO true", "SOL true"]);
    // All released: the next one is granted at once.
    expect(await slots.acquire("BTC", 0)).toBe(true);
  });

  it("a council that always asks last is not starved when each wait outlasts one session only", async () => {
    vi.useFakeTimers();
    const slots = new SessionSlots(1);
    const served: string[] = [];
    // Each slot: BTC takes the free model at once; TAO and SOL queue with a budget that lets one
    // of them in after BTC's session, not both (the slow-model case of docs/engines.md).
    for (let slot = 0; slot < 4; slot++) {
      expect(await slots.acquire("BTC", 90_000)).toBe(true);
      const waits = ["TAO", "SOL"].map((c) => slots.acquire(c, 90_000).then((g) => (g ? served.push(c) : undefined)));
      vi.advanceTimersByTime(60_000);
      slots.release();
      await Promise.resolve();
      vi.advanceTimersByTime(60_000);
      slots.release();
      await Promise.all(waits);
    }
    // First come first served gave TAO all four and SOL none.
    expect(served).toEqual(["TAO", "SOL", "TAO", "SOL"]);
  });

  it("a wait longer than allowed ends with no slot, and that waiter leaves the queue", async () => {
    vi.useFakeTimers();
    const slots = new SessionSlots(1);
    expect(await slots.acquire("BTC", 1_000)).toBe(true);
    const late = slots.acquire("TAO", 5_000);
    vi.advanceTimersByTime(5_000);
    expect(await late).toBe(false);
    expect(slots.queued).toBe(0);
    // The release goes back to the pool rather than to the waiter that gave up.
    slots.release();
    expect(await slots.acquire("SOL", 0)).toBe(true);
  });

  it("two slots serve two sessions at once", async () => {
    const slots = new SessionSlots(2);
    expect(await Promise.all([slots.acquire("BTC", 0), slots.acquire("TAO", 0)])).toEqual([true, true]);
    expect(slots.queued).toBe(0);
  });
});
