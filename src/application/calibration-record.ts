import type { MarketFeed } from "../feeds/market-feed.js";
import { indexAtOrBefore, type PricePath, type PricePathBuilder } from "../domain/calibration/price-path.js";
import { DEFAULT_CALIBRATION } from "../domain/calibration/calibration-map.js";
import type { Asset } from "../domain/signals/signal-keys.js";
import type { CalibrationHistoryRepository, RecordedRuling } from "../store/ports/calibration-history.js";
import { calibrationLeadMs, type RulingStream } from "./ruling-streams.js";
import { hoursFromRecord, recordedStreamIds, recordsOf, type RecordableHour } from "./recorded-rulings.js";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/**
 * How far back live mode keeps and reads its record: the live evaluation covers the trailing
 * window (365 days), and each of its rows was published with a map fitted on the window before
 * it, which reaches one calibration lead further back. With less, an actor that started again
 * would publish the oldest rows of its evaluation with maps fitted on a few days of outcomes
 * where the actor before it had a year's.
 */
export function recordSpanMs(): number {
  return calibrationLeadMs() + DEFAULT_CALIBRATION.windowDays * DAY;
}

/** Rows written per batch while a long catch-up rules hours from the feed. */
const BATCH = 500;

/**
 * One asset's live calibration record as its EvidenceActor uses it (live mode only; replay's
 * record is the bundled history): the hourly closes and rulings it calibrates on, read when the
 * actor starts and written as it rules new hours, so a restarted or moved actor fits what the
 * actor before it fitted although the live feed keeps only its newest 2,400 bars.
 */
export class CalibrationRecord {
  #seeded = false;
  /** The newest close written (or read) so far. */
  #closesRecordedTo = Number.NEGATIVE_INFINITY;
  /** Rows ruled from the feed and not yet written, kept until a write succeeds: streams' own rows, and council agents' votes. */
  #unwritten: RecordedRuling[] = [];
  #unwrittenVotes: RecordedRuling[] = [];

  constructor(
    private readonly history: CalibrationHistoryRepository,
    private readonly feed: MarketFeed,
    private readonly asset: Asset,
  ) {}

  /** Once per activation, before the feed's bars: the recorded closes of the span `to` needs. */
  async seed(prices: PricePathBuilder, to: number): Promise<void> {
    if (this.#seeded) return;
    const closes = await this.history.closesBetween(this.asset, to - recordSpanMs(), to);
    for (const p of closes) prices.push(p.t, p.close);
    this.#closesRecordedTo = closes.at(-1)?.t ?? Number.NEGATIVE_INFINITY;
    this.#seeded = true;
  }

  /** Writes the closes of `path` newer than the last one written. */
  async recordCloses(path: PricePath): Promise<void> {
    const fresh: { t: number; close: number }[] = [];
    for (let i = indexAtOrBefore(path, this.#closesRecordedTo) + 1; i < path.length; i++) fresh.push({ t: path.timeAt(i), close: path.closeAt(i) });
    if (fresh.length === 0) return;
    await this.history.recordCloses(this.asset, fresh);
    this.#closesRecordedTo = path.lastTime() ?? this.#closesRecordedTo;
  }

  /** The stream's recorded hours in [from, to], by time. */
  async hours(stream: RulingStream, from: number, to: number): Promise<Map<number, RecordableHour>> {
    return hoursFromRecord(stream, await this.history.rulingsBetween(recordedStreamIds(stream), from, to));
  }

  /** Whether the feed holds the bar that closed at `t`: an hour the record lacks can be ruled from it. */
  feedHolds(t: number): boolean {
    const bar = this.feed.candles(this.asset, "1h", t, 1)[0];
    return bar !== undefined && bar.t + HOUR === t;
  }

  /** Queues an hour ruled from the feed; written by `flush` (at once when a batch is full). */
  async note(stream: RulingStream, hour: RecordableHour): Promise<void> {
    const [own, ...votes] = recordsOf(stream, hour);
    if (own !== undefined) this.#unwritten.push(own);
    this.#unwrittenVotes.push(...votes);
    if (this.#unwritten.length >= BATCH) await this.flush();
  }

  /**
   * Writes the queued rows; on failure they stay queued for the next flush (the hours they record
   * are not ruled again). A council's agents' votes go before its own rows, so a crash between
   * the two leaves the hour unrecorded rather than recorded with votes missing.
   */
  async flush(): Promise<void> {
    if (this.#unwrittenVotes.length > 0) {
      await this.history.recordRulings(this.#unwrittenVotes);
      this.#unwrittenVotes = [];
    }
    if (this.#unwritten.length > 0) {
      await this.history.recordRulings(this.#unwritten);
      this.#unwritten = [];
    }
  }

  /** Drops what no map or evaluation from `now` on reads. */
  async prune(now: number): Promise<void> {
    await this.history.pruneBefore(now - recordSpanMs() - DAY);
  }
}
