import { signalSource } from "../domain/signals/catalogue.js";
import { SIGNAL_KEYS, type SignalKey } from "../domain/signals/signal-keys.js";
import type { MarketFeed } from "../feeds/market-feed.js";
import type { SignalHistoryPoint, SignalHistoryRepository } from "../store/ports/signal-history.js";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

export interface SignalRecorderOptions {
  /** How far back the first run on an empty history reaches (warm-up), in ms. */
  readonly backfillMs?: number;
  /** Points older than this, in market time, are pruned (at most once per market day), in ms. */
  readonly retentionMs?: number;
  /**
   * Group commit: wall-clock ms a run may hold its points so that later runs' points share its
   * transaction. 0 (the default) writes every run before it returns.
   */
  readonly commitWindowMs?: number;
  /** The wall clock of the commit window, in ms (tests); performance.now by default. */
  readonly wallNow?: () => number;
}

/** 7 days of backfill: the window regime history covers too, so both histories start alike. */
export const DEFAULT_BACKFILL_MS = 7 * DAY;
/** One year: the window the storage benchmark is sized for (27 signals per minute ≈ 14 M rows). */
export const DEFAULT_RETENTION_MS = 365 * DAY;
/**
 * The service's commit window. A SQLite commit costs ~100 µs whatever it holds, and a warm-up or
 * backtest fast-forward records a market hour every ~200 µs, so one commit per run halved replay
 * throughput; 50 ms gathers a few hundred market hours per commit. At REPLAY_SPEED 60 or live a
 * run comes once a wall second, so every run still commits at once.
 */
export const SERVICE_COMMIT_WINDOW_MS = 50;

export interface RecordResult {
  readonly upTo: number;
  /** Points this run committed (its own and any held from earlier runs); 0 while held. */
  readonly written: number;
  /** Points gathered but not committed yet (held for the commit window). */
  readonly held: number;
  readonly pruned: number;
}

/**
 * Turns what the feed observed into the stored signal history that GET /v1/signals/history
 * serves. The resume point of each signal is its newest stored instant, read back from the
 * store on the first run, so there is no separate checkpoint to lose: after a crash the next
 * run re-reads the feed from there, and the store's unique (signal, instant) makes any overlap
 * harmless. Later runs keep the resume points in memory (replay called this every market hour
 * and paid 27 MAX queries each time); a failed write forgets them, so the store decides again.
 *
 * With a commit window, points gathered within it are written together (`flush` writes what is
 * held at once, and a timer does when no run follows). Held points are only ever derived from
 * the feed: a crash loses at most one window of them, and the next process re-reads them from
 * the feed, since it resumes from what the store holds.
 */
export class SignalRecorder {
  private readonly backfillMs: number;
  private readonly retentionMs: number;
  /** Runs one at a time: the timer and, later, an actor reminder may both call in. */
  private tail: Promise<unknown> = Promise.resolve();
  /** Newest stored instant per signal (null: none yet), known since the first read or our own writes. */
  private readonly resume = new Map<SignalKey, number | null>();
  /** Market day of the last prune: retention is a year, so one sweep a day loses nothing. */
  private prunedDay: number | null = null;
  private readonly commitWindowMs: number;
  private readonly wallNow: () => number;
  /** Points gathered and not yet committed. */
  private held: SignalHistoryPoint[] = [];
  /** Wall time of the last commit: a run commits at once when that is a window or more ago. */
  private windowStart: number;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly feed: MarketFeed,
    private readonly history: SignalHistoryRepository,
    options: SignalRecorderOptions = {},
  ) {
    this.backfillMs = options.backfillMs ?? DEFAULT_BACKFILL_MS;
    this.retentionMs = options.retentionMs ?? DEFAULT_RETENTION_MS;
    this.commitWindowMs = options.commitWindowMs ?? 0;
    this.wallNow = options.wallNow ?? (() => performance.now());
    // No commit yet: the first run with points commits at once (the warm-up backfill).
    this.windowStart = -Infinity;
  }

  /** Records every reading observed in (last recorded instant, marketTime]. */
  recordUpTo(marketTime: number): Promise<RecordResult> {
    return this.serialized(() => this.run(marketTime));
  }

  /** Writes every held point now (shutdown, deactivation, tests); returns how many were new. */
  flush(): Promise<number> {
    return this.serialized(() => this.commit());
  }

  private serialized<T>(work: () => Promise<T>): Promise<T> {
    const run = this.tail.then(work);
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
    for (const p of points) this.held.push(p);
    // Held points count as recorded for the resume points: the next run reads on after them.
    for (const [key, t] of newest) this.resume.set(key, Math.max(t, this.resume.get(key) ?? -Infinity));
    let written = 0;
    if (this.held.length > 0) {
      if (this.wallNow() - this.windowStart >= this.commitWindowMs) written = await this.commit();
      else this.armTimer();
    }
    let pruned = 0;
    const day = Math.floor(upTo / DAY);
    if (day !== this.prunedDay) {
      pruned = await this.history.pruneBefore(upTo - this.retentionMs);
      this.prunedDay = day;
    }
    return { upTo, written, held: this.held.length, pruned };
  }

  /** One transaction for everything held. */
  private async commit(): Promise<number> {
    this.disarmTimer();
    this.windowStart = this.wallNow();
    if (this.held.length === 0) return 0;
    const batch = this.held;
    this.held = [];
    try {
      return await this.history.append(batch);
    } catch (err) {
      // Part of the batch may be stored: let the next run read the resume points back, and
      // re-gather from the feed what this batch held.
      this.resume.clear();
      throw err;
    }
  }

  private armTimer(): void {
    if (this.timer !== null) return;
    const wait = Math.max(0, this.commitWindowMs - (this.wallNow() - this.windowStart));
    this.timer = setTimeout(() => {
      this.timer = null;
      // A failed timed commit has already reset the resume points; the next run re-gathers.
      this.flush().catch(() => undefined);
    }, wait);
    this.timer.unref();
  }

  private disarmTimer(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }
}
