import { z } from "zod";
import { TAO_RULINGS } from "../../domain/market/vocabulary.js";
import type { PricePoint } from "../../domain/calibration/price-path.js";
import type { Asset } from "../../domain/signals/signal-keys.js";

/**
 * One hourly ruling of a calibrated stream as the service recorded it (`stream` e.g.
 * `verdict:BTC`, `agent:SOL:TECH HAWK`). Adapters read stored rows back through this schema:
 * a row another build wrote in another shape is an error, not a silent cast.
 */
export const recordedRulingSchema = z.object({
  stream: z.string().min(1),
  at: z.number().int(),
  ruling: z.enum(TAO_RULINGS),
  score: z.number().finite(),
});
export type RecordedRuling = z.infer<typeof recordedRulingSchema>;

export const pricePointSchema = z.object({ t: z.number().int(), close: z.number().finite().positive() });

/**
 * What live mode calibrates on: each stream's hourly rulings and each asset's hourly closes as
 * the service recorded them, kept for the calibration window. A live feed holds only its newest
 * 2,400 bars, so without this an EvidenceActor that was restarted or moved to another replica
 * would fit its maps on 100 days instead of a year (docs/decisions.md). Replay mode does not use
 * it: there the streams are a pure function of the bundled history.
 */
export interface CalibrationHistoryRepository {
  /** Keeps the first recording of each (stream, at): what was recorded once stays what it was. */
  recordRulings(rows: readonly RecordedRuling[]): Promise<void>;
  /** The rulings of the given streams with from <= at <= to, ordered by time. */
  rulingsBetween(streams: readonly string[], from: number, to: number): Promise<RecordedRuling[]>;
  /** Keeps the first recording of each (asset, t). */
  recordCloses(asset: Asset, points: readonly PricePoint[]): Promise<void>;
  /** The asset's closes with from <= t <= to, ascending. */
  closesBetween(asset: Asset, from: number, to: number): Promise<PricePoint[]>;
  /** Drops rulings and closes older than `cutoff` (retention); returns how many rows went. */
  pruneBefore(cutoff: number): Promise<number>;
}
