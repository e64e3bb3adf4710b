/**
 * A first-come-first-served limit on how many council sessions talk to the model at once. Three
 * councils fire at the same minute; on a small host one model server answers one request at a
 * time, and queuing their calls inside the server would spend their per-call timeouts waiting.
 * Queuing here instead keeps each call's timeout for the call, and the wait is bounded.
 * Per process on purpose: it guards this host's CPU and its provider connection, nothing shared.
 */
export class SessionSlots {
  private free: number;
  private readonly waiting: Array<(granted: boolean) => void> = [];

  constructor(readonly size: number) {
    this.free = size;
  }

  /** True once a slot is held; false when none came free within `maxWaitMs`. */
  acquire(maxWaitMs: number): Promise<boolean> {
    if (this.free > 0) {
      this.free--;
      return Promise.resolve(true);
    }
    return new Promise<boolean>((resolve) => {
      const grant = (granted: boolean) => {
        clearTimeout(timer);
        resolve(granted);
      };
      const timer = setTimeout(() => {
        const i = this.waiting.indexOf(grant);
        if (i >= 0) this.waiting.splice(i, 1);
        resolve(false);
      }, maxWaitMs);
      this.waiting.push(grant);
    });
  }

  release(): void {
    const next = this.waiting.shift();
    if (next) next(true);
    else this.free = Math.min(this.size, this.free + 1);
  }

  get queued(): number {
    return this.waiting.length;
  }
}
