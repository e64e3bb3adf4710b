/**
 * A long computation written as steps: a generator that yields (nothing) between units of work
 * of a few milliseconds at most and returns its result. The domain stays pure and clock-free;
 * whoever runs it decides what happens between steps: a script runs it straight through
 * (`runSteps`), a service hands the event loop back between slices (src/runtime/cooperative.ts),
 * so a recomputation over years of hourly rows never holds the requests it shares a process with.
 */
export type Steps<T> = Generator<void, T, void>;

/** Runs the steps to completion, synchronously. */
export function runSteps<T>(steps: Steps<T>): T {
  for (;;) {
    const next = steps.next();
    if (next.done === true) return next.value;
  }
}
