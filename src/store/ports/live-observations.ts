/**
 * One thing a live poll observed (a signal reading, an hourly bar, a day of a macro series, a
 * network figure), as the live feeds of every process share it. `stream` names the series
 * (`reading:BTC_RSI`, `candle:BTC`, ...), `at` the observation's time within it; the payload is
 * JSON the live feed validates when it reads it back (observation-codec.ts).
 */
export interface LiveObservation {
  readonly stream: string;
  readonly at: number;
  readonly payload: string;
}

export interface StoredLiveObservation extends LiveObservation {
  /** Wall-clock ms of the write that last changed it; what readers page by. */
  readonly writtenAt: number;
  /** `${stream}|${at}`: the tie-break among rows written in the same millisecond. */
  readonly id: string;
}

/** Where a reader stopped: the last row it read (rows sort by writtenAt, then id). */
export interface LiveObservationCursor {
  readonly writtenAt: number;
  readonly id: string;
}

export const START_OF_LOG: LiveObservationCursor = { writtenAt: Number.MIN_SAFE_INTEGER, id: "" };

export function observationId(stream: string, at: number): string {
  return `${stream}|${at}`;
}

/**
 * The store's log of live observations: pollers write what they fetched, every process's live
 * feed reads what was written since it last looked (feed-sync.ts). It is what makes several
 * replicas of the service (Dapr places each poller actor on one of them) answer alike, and what
 * a restarted process reloads its live state from.
 */
export interface LiveObservationLog {
  /**
   * Stores each observation unless the same (stream, at) already holds the same payload; a
   * changed payload (a provider's revision) replaces it and counts as new. Returns how many rows
   * were new or changed.
   */
  put(items: readonly LiveObservation[], writtenAt: number): Promise<number>;
  /** Up to `limit` rows after `cursor` in (writtenAt, id) order. */
  after(cursor: LiveObservationCursor, limit: number): Promise<StoredLiveObservation[]>;
  /** Drops observations whose `at` is before `cutoff`; returns how many went. */
  pruneBefore(cutoff: number): Promise<number>;
}
