/**
 * A limit on how many council sessions talk to the model at once. Three councils fire at the same
 * minute; on a small host one model server answers one request at a time, and queuing their calls
 * inside the server would spend their per-call timeouts waiting. Queuing here instead keeps each
 * call's timeout for the call, and the wait is bounded.
 *
 * A freed slot goes to the waiting council served longest ago (never served first; arrival order
 * breaks ties), not to the first in line. The councils ask in the same order every slot, so first
 * come first served handed the model to the same two councils every time and the third, whose
 * wait outlasted their two sessions, deliberated by rule for as long as the model stayed slow.
 * Per process on purpose: it guards this host's CPU and its provider connection, nothing shared.
 */
interface Waiter {
  readonly council: string;
  readonly grant: (granted: boolean) => void;
}

export class SessionSlots {
  private free: number;
  private readonly waiting: Waiter[] = [];
  /** Each council's latest grant, as a count of grants (not a clock): only the order matters. */
  private readonly servedAt = new Map<string, number>();
  private grants = 0;

  constructor(readonly size: number) {
    this.free = size;
  }

  /** True once a slot is held for `council`; false when none came free within `maxWaitMs`. */
  acquire(council: string, maxWaitMs: number): Promise<boolean> {
    if (this.free > 0) {
      this.free--;
      this.#served(council);
      return Promise.resolve(true);
    }
    return new Promise<boolean>((resolve) => {
      const waiter: Waiter = {
        council,
        grant: (granted: boolean) => {
          clearTimeout(timer);
          resolve(granted);
        },
      };
      const timer = setTimeout(() => {
        const i = this.waiting.indexOf(waiter);
        if (i >= 0) this.waiting.splice(i, 1);
        resolve(false);
      }, maxWaitMs);
      this.waiting.push(waiter);
    });
  }

  release(): void {
    const next = this.#longestUnserved();
    if (next === undefined) {
      this.free = Math.min(this.size, this.free + 1);
      return;
    }
    this.waiting.splice(this.waiting.indexOf(next), 1);
    this.#served(next.council);
    next.grant(true);
  }

  get queued(): number {
    return this.waiting.length;
  }

  #served(council: string): void {
    this.grants += 1;
    this.servedAt.set(council, this.grants);
  }

  /** The waiter whose council was granted a slot longest ago; the earliest arrival on a tie. */
  #longestUnserved(): Waiter | undefined {
    let best: Waiter | undefined;
    for (const w of this.waiting) {
      if (best === undefined || (this.servedAt.get(w.council) ?? 0) < (this.servedAt.get(best.council) ?? 0)) best = w;
    }
    return best;
  }
}
