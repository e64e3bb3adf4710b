import { Activation, activationKey } from "./activation.js";

/**
 * The activations of one host and every job queued on them. Knowing every pending job is what
 * lets a shutdown wait for running turns (and for the calls they make in turn).
 */
export class ActivationTable {
  private readonly byKey = new Map<string, Activation>();
  private readonly pending = new Set<Promise<unknown>>();
  /** Wall-clock start (ms) of each job running now: a job running for ever is a stalled host. */
  private readonly running = new Set<{ readonly since: number }>();

  /** The entry of an actor id, created on first use (activation itself happens in a turn). */
  entry(type: string, id: string): Activation {
    const key = activationKey(type, id);
    let activation = this.byKey.get(key);
    if (!activation) {
      activation = new Activation({ type, id }, key);
      this.byKey.set(key, activation);
    }
    return activation;
  }

  find(type: string, id: string): Activation | undefined {
    return this.byKey.get(activationKey(type, id));
  }

  all(): Activation[] {
    return [...this.byKey.values()];
  }

  /** Jobs queued or running. */
  get busy(): number {
    return this.pending.size;
  }

  /** Runs `job` in the actor's mailbox: after every job queued before it, alone. */
  enqueue<T>(activation: Activation, job: () => Promise<T>): Promise<T> {
    const done = activation.mailbox.enqueue(async () => {
      const mark = { since: Date.now() };
      this.running.add(mark);
      try {
        return await job();
      } finally {
        this.running.delete(mark);
      }
    });
    this.pending.add(done);
    const forget = (): void => {
      this.pending.delete(done);
    };
    done.then(forget, forget);
    return done;
  }

  /**
   * Milliseconds the longest-running job has been running (0 when none runs). The readiness probe
   * reports a host whose turns stopped completing rather than answering 200 through a stall.
   */
  oldestRunningMs(now = Date.now()): number {
    let oldest = now;
    for (const mark of this.running) oldest = Math.min(oldest, mark.since);
    return now - oldest;
  }

  /** Resolves once no job is queued or running, including jobs queued while waiting. */
  async settled(): Promise<void> {
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
  }

  /**
   * Forgets a deactivated entry, from inside its last job. Calls queued behind the deactivation
   * keep the entry (they re-activate it); a later call creates a fresh one.
   */
  release(activation: Activation): void {
    if (activation.mailbox.size === 0 && this.byKey.get(activation.key) === activation) this.byKey.delete(activation.key);
  }
}

/** Calls a public actor method by name (already checked against the registration). */
export function callMethod(instance: object, type: string, method: string, args: readonly unknown[]): Promise<unknown> {
  const target: unknown = Reflect.get(instance, method);
  if (typeof target !== "function") return Promise.reject(new Error(`${type} has no method ${method}`));
  return Promise.resolve(Reflect.apply(target, instance, args) as unknown);
}

/** Waits for `work`, at most `ms`; says which came first. Shutdowns must end within DECISIONS 1's 10 s. */
export async function within(work: Promise<void>, ms: number): Promise<"done" | "timeout"> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<"timeout">((resolve) => {
    timer = setTimeout(() => resolve("timeout"), ms);
  });
  try {
    return await Promise.race([work.then(() => "done" as const), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
