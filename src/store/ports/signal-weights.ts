import type { WeightRow } from "../../domain/weights/update-weights.js";

/** SPEC "Signal weights" rows, keyed by (signal_key, regime); written by the WeightsActor. */
export interface SignalWeightRepository {
  /** Upserts every row by (signal_key, regime): rerunning a cycle rewrites the same rows. */
  save(rows: readonly WeightRow[]): Promise<void>;
  all(): Promise<WeightRow[]>;
}
