import { signalSource } from "../domain/signals/catalogue.js";
import { SIGNAL_KEYS } from "../domain/signals/signal-keys.js";
import type { MarketFeed } from "../feeds/market-feed.js";
import type { SignalHistoryPoint, SignalHistoryRepository } from "../store/ports/signal-history.js";

const DAY = 86_400_000;

export interface SignalRecorderOptions {
  /** How far back the first run on an empty history reaches (warm-up), in ms. */
  readonly backfillMs?: number;
  /** Points older than this, in market time, are pruned after each run, in ms. */
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
 * store, so there is no separate checkpoint to lose: after a crash the next run re-reads the
 * feed from there, and the store's unique (signal, instant) makes any overlap harmless.
 */
export class SignalRecorder {
  private readonly backfillMs: number;
  private readonly retentionMs: number;
  /** Runs one at a time: the timer and, later, an actor reminder may both call in. */
  private tail: Promise<unknown> = Promise.resolve();

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
    for (const key of SIGNAL_KEYS) {
      // A signal without a real source in this mode is DEAD: nothing of it is ever recorded.
      if (!signalSource(key, this.feed.mode)) continue;
      const last = await this.history.latestRecordedAt(key);
      const from = last === null ? upTo - this.backfillMs : last + 1;
      for (const r of this.feed.readingsBetween(key, from, upTo)) {
        points.push({ signalKey: r.key, recordedAt: r.observedAt, value: r.value, source: r.source });
      }
    }
    const written = points.length > 0 ? await this.history.append(points) : 0;
    const pruned = await this.history.pruneBefore(upTo - this.retentionMs);
    return { upTo, written, pruned };
  }
}
