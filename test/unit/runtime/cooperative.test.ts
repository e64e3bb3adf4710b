import { describe, expect, it } from "vitest";
import { drainSteps, EventLoopSlice } from "../../../src/runtime/cooperative.js";
import type { Steps } from "../../../src/domain/evaluation/steps.js";

/** Steps that record each unit of work they do in `log`. */
function* counted(n: number, log: string[]): Steps<number> {
  for (let i = 0; i < n; i++) {
    log.push(`step ${i}`);
    yield;
  }
  return n;
}

describe("drainSteps", () => {
  it("hands the event loop back between slices: work queued meanwhile runs before the computation ends", async () => {
    const log: string[] = [];
    // A zero-length slice hands back after every step.
    const done = drainSteps(counted(3, log), new EventLoopSlice({ sliceMs: 0 }));
    setImmediate(() => log.push("immediate"));
    setTimeout(() => log.push("timer"), 0);
    expect(await done).toBe(3);
    expect(log.indexOf("immediate")).toBeGreaterThan(-1);
    expect(log.indexOf("immediate")).toBeLessThan(log.indexOf("step 2"));
  });

  it("runs the steps straight through while the slice lasts", async () => {
    const log: string[] = [];
    // A slice no run of this test reaches: nothing else gets the loop until the end.
    const done = drainSteps(counted(50, log), new EventLoopSlice({ sliceMs: 60_000 }));
    setImmediate(() => log.push("immediate"));
    expect(await done).toBe(50);
    expect(log).not.toContain("immediate");
  });

  it("abandons the computation at the next hand-back once the signal aborts", async () => {
    const log: string[] = [];
    const stop = new AbortController();
    const done = drainSteps(counted(1_000, log), new EventLoopSlice({ sliceMs: 0, signal: stop.signal }));
    setImmediate(() => stop.abort(new Error("host stopping")));
    await expect(done).rejects.toThrow("host stopping");
    expect(log.length).toBeLessThan(5);
  });
});
