import { signalSource } from "../domain/signals/catalogue.js";
import { SIGNAL_KEYS, type SignalKey } from "../domain/signals/signal-keys.js";
import type { MarketFeed } from "../feeds/market-feed.js";
import type { SignalHistoryPoint, SignalHistoryRepository } from "../store/ports/signal-history.js";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

export interface SignalRecorderOptions {
  /** How far back the first run on an empty history reaches (warm-up), in ms. */
  readonly backfillMs?: number;
  /** Points older than this, in market time, are pruned (at most once per market hour), in ms. */
  readonly retentionMs?: number;
}

/** 7 days of backfill: the window regime history covers too, so both histories start alike. */
export const DEFAULT_BACKFILL_MS = 7 * DAY;
/** One year: the window the storage benchmark is sized for (27 signals per minute ≈ 14 M rows). */
export const DEFAULT_RETENTION_MS = 365 * DAY;

export interface RecordResult {
  readonly upTo: number;
  readonly written: number;
  readonly pruned: number;
}

/**
 * Turns what the feed observed into the stored signal history that GET /v1/signals/history
 * serves. The resume point of each signal is its newest stored instant, read back from the
 * store on the first run, so there is no separate checkpoint to lose: after a crash the next
 * run re-reads the feed from there, and the store's unique (signal, instant) makes any overlap
 * harmless. Later runs keep the resume points in memory (replay called this every market hour
 * and paid 27 MAX queries each time); a failed write forgets them, so the store decides again.
 */
export class SignalRecorder {
  private readonly backfillMs: number;
  private readonly retentionMs: number;
  /** Runs one at a time: the timer and, later, an actor reminder may both call in. */
  private tail: Promise<unknown> = Promise.resolve();
  /** Newest stored instant per signal (null: none yet), known since the first read or our own writes. */
  private readonly resume = new Map<SignalKey, number | null>();
  /** Market hour of the last prune: retention is in days, so one sweep an hour loses nothing. */
  private prunedHour: number | null = null;

  constructor(
    private readonly feed: MarketFeed,
    private readonly history: SignalHistoryRepository,
    options: SignalRecorderOptions = {},
  ) {
    this.backfillMs = options.backfillMs ?? DEFAULT_BACKFILL_MS;
    this.retentionMs = options.retentionMs ?? DEFAULT_RETENTION_MS;
  }

  /** Records every reading observed in (last recorded instant, marketTime]. */
  recordUpTo(marketTime: number): Promise<RecordResult> {
    const run = this.tail.then(() => this.run(marketTime));
    this.tail = run.catch(() => undefined);
    return run;
  }

  private async run(upTo: number): Promise<RecordResult> {
    const points: SignalHistoryPoint[] = [];
    const newest = new Map<SignalKey, number>();
    for (const key of SIGNAL_KEYS) {
      // A signal without a real source in this mode is DEAD: nothing of it is ever recorded.
      if (!signalSource(key, this.feed.mode)) continue;
      let last = this.resume.get(key);
      if (last === undefined) {
        last = await this.history.latestRecordedAt(key);
        this.resume.set(key, last);
      }
      const from = last === null ? upTo - this.backfillMs : last + 1;
      for (const r of this.feed.readingsBetween(key, from, upTo)) {
        points.push({ signalKey: r.key, recordedAt: r.observedAt, value: r.value, source: r.source });
        if (r.observedAt > (newest.get(key) ?? -Infinity)) newest.set(key, r.observedAt);
      }
    }
    let written = 0;
    if (points.length > 0) {
      try {
        written = await this.history.append(points);
      } catch (err) {
        // Part of the batch may be stored: let the next run read the resume points back.
        this.resume.clear();
        throw err;
      }
      // Stored (new or already there): the newest instant of each signal moves up to it.
      for (const [key, t] of newest) this.resume.set(key, Math.max(t, this.resume.get(key) ?? -Infinity));
    }
    let pruned = 0;
    const hour = Math.floor(upTo / HOUR);
    if (hour !== this.prunedHour) {
      pruned = await this.history.pruneBefore(upTo - this.retentionMs);
      this.prunedHour = hour;
    }
    return { upTo, written, pruned };
  }
}
