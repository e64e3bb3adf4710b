import { describe, expect, it } from "vitest";
import { CALL_ANSWER_MAX_CHARS, CALL_BUCKET_SIZE, callIdSchema, emptyCallMemory, recalled, remember, withBucket, type CallMemory } from "../../../src/runtime/dapr/call-memory.js";

/** The memory after committing `n` calls named call-0000.. in order. */
function committed(n: number, from: CallMemory = emptyCallMemory()): CallMemory {
  let memory = from;
  for (let i = 0; i < n; i++) {
    const { slot, bucket } = remember(memory, `call-${String(i).padStart(4, "0")}`, String(i));
    memory = withBucket(memory, slot, bucket);
  }
  return memory;
}

describe("an actor's call memory", () => {
  it("answers a committed call's id with its answer, and knows no other", () => {
    const memory = committed(3);
    expect(recalled(memory, "call-0001")).toBe("1");
    expect(recalled(memory, "call-0009")).toBeUndefined();
  });

  it("remembers at least a bucket's worth of the newest calls, and never more than two", () => {
    for (const n of [CALL_BUCKET_SIZE, CALL_BUCKET_SIZE + 1, 2 * CALL_BUCKET_SIZE, 2 * CALL_BUCKET_SIZE + 1, 5 * CALL_BUCKET_SIZE + 7]) {
      const memory = committed(n);
      const kept = memory[0].calls.length + memory[1].calls.length;
      expect(kept, `after ${n}`).toBeGreaterThanOrEqual(Math.min(n, CALL_BUCKET_SIZE));
      expect(kept, `after ${n}`).toBeLessThanOrEqual(2 * CALL_BUCKET_SIZE);
      // The newest CALL_BUCKET_SIZE calls are all there.
      for (let i = n - CALL_BUCKET_SIZE; i < n; i++) expect(recalled(memory, `call-${String(i).padStart(4, "0")}`), `call ${i} after ${n}`).toBe(String(i));
    }
  });

  it("writes one bucket per turn, at most a bucket's worth of calls", () => {
    let memory = emptyCallMemory();
    for (let i = 0; i < 3 * CALL_BUCKET_SIZE; i++) {
      const { slot, bucket } = remember(memory, `id-${i}-xxxx`, "1");
      expect(bucket.calls.length).toBeLessThanOrEqual(CALL_BUCKET_SIZE);
      memory = withBucket(memory, slot, bucket);
    }
  });

  it("keeps no answer longer than its bound, only that the call ran", () => {
    const long = remember(emptyCallMemory(), "call-long", "x".repeat(CALL_ANSWER_MAX_CHARS + 1));
    expect(recalled(withBucket(emptyCallMemory(), long.slot, long.bucket), "call-long")).toBeNull();
    const fits = remember(emptyCallMemory(), "call-fits", "x".repeat(CALL_ANSWER_MAX_CHARS));
    expect(recalled(withBucket(emptyCallMemory(), fits.slot, fits.bucket), "call-fits")).toHaveLength(CALL_ANSWER_MAX_CHARS);
  });

  it("takes ids our proxy sends and nothing that could smuggle header or path text", () => {
    expect(callIdSchema.safeParse("Xk3_9aQmZ1b2c3d4").success).toBe(true);
    for (const bad of ["", "short", "has space here", "a/b/c/d/e/f", "x".repeat(65)]) expect(callIdSchema.safeParse(bad).success).toBe(false);
  });
});
