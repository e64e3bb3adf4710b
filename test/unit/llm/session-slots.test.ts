import { afterEach, describe, expect, it, vi } from "vitest";
import { SessionSlots } from "../../../src/llm/session-slots.js";

afterEach(() => {
  vi.useRealTimers();
});

describe("SessionSlots: how many council sessions use the model at once", () => {
  it("grants up to its size at once, then queues first come first served", async () => {
    const slots = new SessionSlots(1);
    expect(await slots.acquire(1_000)).toBe(true);
    const order: string[] = [];
    const tao = slots.acquire(60_000).then((g) => order.push(`TAO ${g}`));
    const sol = slots.acquire(60_000).then((g) => order.push(`SOL ${g}`));
    expect(slots.queued).toBe(2);
    slots.release();
    await tao;
    expect(order).toEqual(["TAO true"]);
    slots.release();
    await sol;
    expect(order).toEqual(["TAO true", "SOL true"]);
    slots.release();
    // All released: the next one is granted at once.
    expect(await slots.acquire(0)).toBe(true);
  });

  it("a wait longer than allowed ends with no slot, and that waiter leaves the queue", async () => {
    vi.useFakeTimers();
    const slots = new SessionSlots(1);
    expect(await slots.acquire(1_000)).toBe(true);
    const late = slots.acquire(5_000);
    vi.advanceTimersByTime(5_000);
    expect(await late).toBe(false);
    expect(slots.queued).toBe(0);
    // The release goes back to the pool rather than to the waiter that gave up.
    slots.release();
    expect(await slots.acquire(0)).toBe(true);
  });

  it("two slots serve two sessions at once", async () => {
    const slots = new SessionSlots(2);
    expect(await Promise.all([slots.acquire(0), slots.acquire(0)])).toEqual([true, true]);
    expect(slots.queued).toBe(0);
  });
});
