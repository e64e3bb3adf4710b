import type { Regime } from "../../domain/market/vocabulary.js";
import type { WeightRow } from "../../domain/weights/update-weights.js";

/** SPEC "Signal weights" rows, keyed by (signal_key, regime); written by the WeightsActor. */
export interface SignalWeightRepository {
  /** Upserts every row by (signal_key, regime): rerunning a cycle rewrites the same rows. */
  save(rows: readonly WeightRow[]): Promise<void>;
  all(): Promise<WeightRow[]>;
  /**
   * Changes whenever the rows change (the newest `last_updated` and the row count): a replica
   * checks it before each use and reloads the rows only when it moved. Null with no rows.
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
