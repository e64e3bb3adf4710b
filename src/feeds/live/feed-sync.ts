import type { Clock } from "../../runtime/clocks/clock.js";
import { START_OF_LOG, type LiveObservation, type LiveObservationCursor, type LiveObservationLog } from "../../store/ports/live-observations.js";
import { KEPT_HOURLY_BARS } from "./live-candle-store.js";
import { decodeObservation, type DecodedObservation } from "./observation-codec.js";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** How often each process reads what other processes' pollers wrote. */
export const SYNC_EVERY_MS = 5_000;
/**
 * Rows are paged by their writer's wall clock, and several processes write: each pull re-reads
 * this much before the newest write it saw, so a writer whose clock lags by up to this much is not
 * missed. Re-read rows change nothing (the caches keep one value per observation time).
 */
export const CLOCK_SKEW_MS = 5 * MINUTE;
/**
 * Live state worth reloading after a restart: the hourly bars' 100 days (the signal weights'
 * baseline reads them: live-candle-store.ts), which cover the reading cache's and AI percentile's
 * 90. Shorter, and a replica started later would hold fewer bars than the one that polled them.
 */
export const LOG_RETENTION_MS = KEPT_HOURLY_BARS * HOUR;
/** Observations kept for a retry while the store refuses writes; beyond that the oldest go. */
const MAX_UNSENT = 50_000;
const PAGE = 5_000;

export type Warn = (message: string, err: unknown) => void;

/** Where the live feed hands what its polls fetched, for the other processes. */
export interface ObservationPublisher {
  publish(items: readonly LiveObservation[]): Promise<void>;
}

/**
 * Writes observations to the store's log. A failed write keeps them (bounded) and the next
 * publish retries them with its own, so a short store outage loses nothing for the other
 * processes; this process already applied them to its own feed.
 */
export class LogPublisher implements ObservationPublisher {
  private unsent: LiveObservation[] = [];

  constructor(
    private readonly log: LiveObservationLog,
    private readonly wall: Clock,
    private readonly warn: Warn,
  ) {}

  async publish(items: readonly LiveObservation[]): Promise<void> {
    const batch = this.unsent.concat(items);
    this.unsent = [];
    if (batch.length === 0) return;
    try {
      await this.log.put(batch, this.wall.now());
    } catch (err) {
      this.unsent = batch.concat(this.unsent).slice(-MAX_UNSENT);
      this.warn("live observations not shared yet; retried with the next poll", err);
    }
  }

  /**
   * At stop: one last write of what the store refused before. Without it a process that stopped
   * during a store outage took those observations with it; candles are fetched again by the next
   * poller, but the readings between (a funding rate, an index value) were gone for every replica.
   */
  async flush(): Promise<void> {
    const batch = this.unsent;
    this.unsent = [];
    if (batch.length === 0) return;
    try {
      await this.log.put(batch, this.wall.now());
    } catch (err) {
      this.warn(`live observations not shared before stopping, so other processes will not see them: ${batch.length}`, err);
    }
  }
}

/** What the sync applies observations to (LiveMarketFeed). */
export interface ObservationSink {
  apply(items: readonly DecodedObservation[]): void;
}

/**
 * Brings this process's live feed up to what every process's pollers wrote: at start (a
 * restarted process reloads its live state) and every SYNC_EVERY_MS after. A per-process timer,
 * not an actor reminder: an actor runs on one replica, and every replica's feed needs the pull.
 */
export class LiveFeedSync {
  private newestWrite: number | null = null;
  private lastPrune = Number.NEGATIVE_INFINITY;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<number> | null = null;

  constructor(
    private readonly log: LiveObservationLog,
    private readonly sink: ObservationSink,
    private readonly wall: Clock,
    private readonly warn: Warn,
  ) {}

  /** Reads and applies everything written since the last pull (less the skew window). */
  pull(): Promise<number> {
    this.running ??= this.pullOnce().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  start(everyMs = SYNC_EVERY_MS): void {
    if (this.timer !== null) return;
    this.timer = setInterval(() => {
      this.pull().catch((err: unknown) => this.warn("live feed sync failed; retried at the next tick", err));
    }, everyMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
    await this.running?.catch(() => undefined);
  }

  private async pullOnce(): Promise<number> {
    let cursor: LiveObservationCursor = this.newestWrite === null ? START_OF_LOG : { writtenAt: this.newestWrite - CLOCK_SKEW_MS, id: "" };
    let applied = 0;
    for (;;) {
      const page = await this.log.after(cursor, PAGE);
      const decoded: DecodedObservation[] = [];
      for (const row of page) {
        const d = decodeObservation(row);
        if (d !== null) decoded.push(d);
      }
      this.sink.apply(decoded);
      applied += decoded.length;
      const last = page.at(-1);
      if (last === undefined) break;
      // Never past this reader's own time: one row stamped by a clock running ahead would move
      // the next pull's start past the rows correct clocks write after it, and they would be
      // skipped for good. Rows ahead of it are read again by each pull until its time comes.
      const written = Math.min(last.writtenAt, this.wall.now());
      this.newestWrite = Math.max(this.newestWrite ?? written, written);
      cursor = last;
      if (page.length < PAGE) break;
    }
    const now = this.wall.now();
    if (now - this.lastPrune >= 60 * MINUTE) {
      this.lastPrune = now;
      await this.log.pruneBefore(now - LOG_RETENTION_MS);
    }
    return applied;
  }
}
