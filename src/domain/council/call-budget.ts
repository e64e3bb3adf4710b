/**
 * The number of model requests one session may make, retries and repairs included, so a slow
 * or flaky provider cannot turn one session into an unbounded bill.
 */
export class CallBudget {
  private used = 0;
  constructor(readonly limit: number) {}
  tryTake(): boolean {
    if (this.used >= this.limit) return false;
    this.used++;
    return true;
  }
  get spent(): number {
    return this.used;
  }
}

/** Default: six agents plus the Chief Judge, and room for a few retries or repairs. */
export const DEFAULT_CALLS_PER_SESSION = 12;
