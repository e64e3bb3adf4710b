import type { SignalKey } from "../../domain/signals/signal-keys.js";

/** One recorded signal value; `recordedAt` is the market time the source observed it (ms since epoch). */
export interface SignalHistoryPoint {
  readonly signalKey: SignalKey;
  readonly recordedAt: number;
  readonly value: number;
  /** Which real source delivered it (provenance: nothing in the history is invented). */
  readonly source: string;
}

export interface SignalHistoryPage {
  /** Newest first. */
  readonly items: readonly SignalHistoryPoint[];
  /** Every point of the signal recorded at or before `asOf`, not just this page. */
  readonly total: number;
}

export interface SignalHistoryQuery {
  readonly signalKey: SignalKey;
  /** Market time the answer is "as of": points recorded after it stay invisible (no look-ahead). */
  readonly asOf: number;
  /** 1-based. */
  readonly page: number;
  readonly perPage: number;
}

/**
 * The signal readings the service actually recorded, as a time series. Append-only and
 * idempotent: (signalKey, recordedAt) is unique and a second write of the same instant changes
 * nothing, so the recorder may replay any range after a crash.
 */
export interface SignalHistoryRepository {
  /** Stores the points not stored yet; returns how many were new. */
  append(points: readonly SignalHistoryPoint[]): Promise<number>;
  /** The newest recorded instant of a signal, or null when none: where the recorder resumes. */
  latestRecordedAt(signalKey: SignalKey): Promise<number | null>;
  page(query: SignalHistoryQuery): Promise<SignalHistoryPage>;
  /** Drops points recorded before `cutoff` (retention); returns how many went. */
  pruneBefore(cutoff: number): Promise<number>;
}
