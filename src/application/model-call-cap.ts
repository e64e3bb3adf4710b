import type { CounterRepository } from "../store/ports/counters.js";
import type { Clock } from "../runtime/clocks/clock.js";
import { clockHourWindow } from "./mail-send-windows.js";

/**
 * LLM_MAX_CALLS_PER_HOUR: how many HTTP attempts every replica together may make to the model
 * provider in one wall-clock hour. Sessions run on the market clock, so at replay speed 60 each
 * council meets every 30 wall seconds; on a paid key that is a bill no per-session budget bounds.
 * Counted in the store, one fixed window per clock hour, so N replicas share one allowance. A
 * fixed window: up to twice the cap can go out across an hour's end (the end of one, the start of
 * the next), and a replica whose clock is off by seconds counts into its own hour near the end.
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
    return (await this.counters.consumeAll([clockHourWindow("llm-calls", this.perHour, now)], now)).allowed;
  }
}
