import type { CounterRepository } from "../store/ports/counters.js";
import type { Clock } from "../runtime/clocks/clock.js";

const HOUR_MS = 3_600_000;

/**
 * LLM_MAX_CALLS_PER_HOUR: how many HTTP attempts every replica together may make to the model
 * provider in one wall-clock hour. Sessions run on the market clock, so at replay speed 60 each
 * council meets every 30 wall seconds; on a paid key that is a bill no per-session budget bounds.
 * Counted in the store, one fixed window per hour, so N replicas share one allowance.
 */
export class ModelCallCap {
  constructor(
    private readonly counters: CounterRepository,
    private readonly clock: Clock,
    private readonly perHour: number,
  ) {}

  /** Counts one attempt if the hour has room; false when it is spent. */
  async take(): Promise<boolean> {
    const now = this.clock.now();
    const end = (Math.floor(now / HOUR_MS) + 1) * HOUR_MS;
    const r = await this.counters.consumeAll([{ bucket: `llm-calls:${end}`, limit: this.perHour, expiresAt: end }], now);
    return r.allowed;
  }
}
