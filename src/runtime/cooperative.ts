import { performance } from "node:perf_hooks";
import type { Steps } from "../domain/evaluation/steps.js";

/**
 * How long a computation may hold the event loop before handing it back, ms. A request that
 * arrives meanwhile waits this long plus the step under way (steps are a few ms at most): inside
 * the 10 ms p99 the HTTP bench holds the service to, at a cost of one `setImmediate` round per
 * slice. With 4 ms the longest block measured 12.7 ms; with 2 ms, 8–9 ms (bench/README.md).
 */
export const SLICE_MS = 2;

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Hands the event loop back whenever `sliceMs` have passed since it last did (timers, I/O and
 * other actors' turns run in between). `signal` is checked after each hand-back, so a host
 * that stops abandons the computation there.
 */
export class EventLoopSlice {
  #since = performance.now();

  private readonly sliceMs: number;
  private readonly signal: AbortSignal | undefined;

  constructor(options: { readonly signal?: AbortSignal; readonly sliceMs?: number } = {}) {
    this.sliceMs = options.sliceMs ?? SLICE_MS;
    this.signal = options.signal;
  }

  async maybeYield(): Promise<void> {
    if (performance.now() - this.#since < this.sliceMs) return;
    await nextTurn();
    this.signal?.throwIfAborted();
    this.#since = performance.now();
  }
}

/** Runs domain steps (src/domain/evaluation/steps.ts) in slices of the event loop. */
export async function drainSteps<T>(steps: Steps<T>, slice: EventLoopSlice = new EventLoopSlice()): Promise<T> {
  for (;;) {
    const next = steps.next();
    if (next.done === true) return next.value;
    await slice.maybeYield();
  }
}
