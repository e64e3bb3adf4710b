import type { RegimeReport } from "../../domain/regime/regime-report.js";

/** One hourly regime evaluation as published (market time `at` = the report's detection time). */
export interface StoredRegime {
  readonly at: number;
  readonly report: RegimeReport;
}

/**
 * The regime detector's published evaluations. Written by the RegimeActor, read by the regime
 * routes and by other capabilities (the Ghost Traders' regime gate) as of a market time.
 */
export interface RegimeHistoryRepository {
  /** Idempotent per `at`: a retried turn writes the same row again without duplicating it. */
  record(entry: StoredRegime): Promise<void>;
  /** The newest evaluation at or before `at` (no look-ahead), or null. */
  latestAtOrBefore(at: number): Promise<StoredRegime | null>;
  /** Evaluations with from <= at <= to, oldest first. */
  between(from: number, to: number): Promise<StoredRegime[]>;
  /** Deletes the evaluations with at < `at` (retention); returns how many were deleted. Idempotent. */
  pruneBefore(at: number): Promise<number>;
}
