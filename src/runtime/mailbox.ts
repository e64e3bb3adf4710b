import { bindToCaller } from "../logging/log-context.js";

/**
 * One actor's queue: jobs run one at a time in arrival order (turn-based concurrency). A plain
 * array with a moving head keeps enqueue and dequeue O(1) under thousands of waiting calls.
 */
export class Mailbox {
  private jobs: Array<() => Promise<void>> = [];
  private head = 0;
  private draining = false;
  /** True from a job's start until just before its caller is answered. */
  private running = false;

  /** Nothing running and nothing queued; already true when the last caller resumes. */
  get idle(): boolean {
    return !this.running && this.head === this.jobs.length;
  }

  /** Jobs waiting behind the one running. */
  get size(): number {
    return this.jobs.length - this.head;
  }

  enqueue<T>(job: () => Promise<T>): Promise<T> {
    // Each job runs in its caller's log context: the drain loop runs in the context of whoever
    // started it, and would otherwise label every later caller's turn with that first request.
    const bound = bindToCaller(job);
    return new Promise<T>((resolve, reject) => {
      this.jobs.push(() =>
        bound().then(
          (value) => {
            this.running = false;
            resolve(value);
          },
          (err: unknown) => {
            this.running = false;
            reject(err);
          },
        ),
      );
      if (!this.draining) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.draining = true;
    while (this.head < this.jobs.length) {
      const job = this.jobs[this.head];
      this.jobs[this.head] = noop;
      this.head += 1;
      if (this.head > 1024 && this.head * 2 > this.jobs.length) {
        this.jobs = this.jobs.slice(this.head);
        this.head = 0;
      }
      this.running = true;
      if (job) await job();
    }
    this.draining = false;
  }
}

const noop = (): Promise<void> => Promise.resolve();
