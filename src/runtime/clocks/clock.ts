/**
 * Time as the service sees it. Market logic reads a market clock (wall time live, replay time
 * in replay mode); caller-facing logic (quotas, limits, key timestamps) always reads wall time.
 */
export interface Clock {
  /** Milliseconds since the Unix epoch, in this clock's time. */
  now(): number;
}

export const wallClock: Clock = { now: () => Date.now() };

/** A clock tests move by hand, so nothing depends on real elapsed time. */
export class ManualClock implements Clock {
  constructor(private current: number) {}
  now(): number {
    return this.current;
  }
  set(ms: number): void {
    this.current = ms;
  }
  advance(ms: number): void {
    this.current += ms;
  }
}
