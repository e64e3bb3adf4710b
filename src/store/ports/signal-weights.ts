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
