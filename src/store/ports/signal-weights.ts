import type { Regime } from "../../domain/market/vocabulary.js";
import type { WeightRow } from "../../domain/weights/update-weights.js";

/** One 6-hour weights cycle as written: the whole table, with the rows it started from. */
export interface WeightCycle {
  /** The 6-hour mark the cycle ran for (ms epoch, market time). */
  readonly cycleAt: number;
  /**
   * The table the cycle started from. A cycle of the same mark run again (a retried turn, a
   * second warm-up) starts from these rows, not from its own output, so it writes the same rows
   * instead of stepping the multipliers twice.
   */
  readonly before: readonly WeightRow[];
  readonly rows: readonly WeightRow[];
}

/**
 * SPEC "Signal weights" rows, keyed by (signal_key, regime); written by the WeightsActor, one
 * cycle at a time. A cycle replaces the whole table in one atomic write (one row on SQLite, one
 * document on MongoDB), so no reader ever sees half a cycle.
 */
export interface SignalWeightRepository {
  /** Replaces the table with the cycle's rows and moves the version, atomically. */
  saveCycle(cycle: WeightCycle): Promise<void>;
  /** The last cycle written; null before the first. */
  lastCycle(): Promise<WeightCycle | null>;
  /** The current rows, by regime then signal; empty before the first cycle. */
  all(): Promise<WeightRow[]>;
  /**
   * A counter every write moves: a replica checks it before each use and reloads the rows only
   * when it moved. Null with no table.
   */
  version(): Promise<string | null>;
}

/**
 * The weights as the Judiciary Engine reads them (SPEC "Signal weights"); absent, every multiplier
 * is 1.0. Synchronous on purpose: the engine scores dozens of signals per run, so a source caches
 * its rows itself.
 */
export interface MultiplierSource {
  multiplierFor(key: string, regime: Regime | null): number;
  /** Brings the source up to date with the store before an evaluation (absent: always current). */
  sync?(): Promise<void>;
}
