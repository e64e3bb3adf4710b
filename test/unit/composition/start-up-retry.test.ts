import { describe, expect, it } from "vitest";
import { retryUntilStopped, startRetryDelayMs, type StartUpFailure } from "../../../src/composition/start-up-retry.js";

describe("retryUntilStopped: the start-up's retried steps", () => {
  it("tries again after a failure, a second later the first time, and returns the step's value", async () => {
    const failures: StartUpFailure[] = [];
    const outcome = await retryUntilStopped(
      async (attempt) => {
        if (attempt === 1) throw new Error("store not answering yet");
        return 42;
      },
      new AbortController().signal,
      (failure) => {
        failures.push(failure);
        return "try-again";
      },
    );
    expect(outcome).toEqual({ done: true, value: 42 });
    expect(failures.map((f) => [f.attempt, f.retryInMs, String(f.err)])).toEqual([[1, 1_000, "Error: store not answering yet"]]);
  });

  it("waits a second more per attempt, at most 10 s", () => {
    expect([1, 2, 3, 9, 10, 11, 50].map(startRetryDelayMs)).toEqual([1_000, 2_000, 3_000, 9_000, 10_000, 10_000, 10_000]);
  });

  it("gives up after the attempt whose owner stops trying", async () => {
    let attempts = 0;
    const outcome = await retryUntilStopped(
      async () => {
        attempts++;
        throw new Error("market time moved: not to be tried again");
      },
      new AbortController().signal,
      () => "stop-trying",
    );
    expect(outcome).toEqual({ done: false });
    expect(attempts).toBe(1);
  });

  it("after a stop no attempt starts, and a failure the stop caused is not reported", async () => {
    const stop = new AbortController();
    let attempts = 0;
    const reported: number[] = [];
    const outcome = retryUntilStopped(
      async () => {
        attempts++;
        throw new Error("daprd not answering");
      },
      stop.signal,
      ({ attempt }) => {
        reported.push(attempt);
        return "try-again";
      },
    );
    // Inside the first wait (1 s). How soon the stop returns is measured at the service level
    // (warm-up-cache.test.ts), not here: no timing assertion in a unit test.
    await new Promise((resolve) => setTimeout(resolve, 100));
    stop.abort();
    expect(await outcome).toEqual({ done: false });
    expect(attempts).toBe(1);
    expect(reported).toEqual([1]);

    // A step that fails because of the stop itself (a closed store) is not reported as a failure.
    const late = new AbortController();
    const silent: number[] = [];
    const second = await retryUntilStopped(
      async () => {
        late.abort();
        throw new Error("store closed");
      },
      late.signal,
      ({ attempt }) => {
        silent.push(attempt);
        return "try-again";
      },
    );
    expect(second).toEqual({ done: false });
    expect(silent).toEqual([]);
  });

  it("does not start a step once the service has stopped", async () => {
    const stop = new AbortController();
    stop.abort();
    let attempts = 0;
    const outcome = await retryUntilStopped(async () => ++attempts, stop.signal, () => "try-again");
    expect(outcome).toEqual({ done: false });
    expect(attempts).toBe(0);
  });
});
