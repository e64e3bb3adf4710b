import type { JudiciaryVerdict } from "../../domain/judiciary/judiciary-verdict.js";
import type { Asset } from "../../domain/signals/signal-keys.js";

/** One Judiciary Engine ruling as stored: trades point at it by `id`. */
export interface StoredVerdict {
  readonly id: string;
  /** Market time of the evaluation. */
  readonly at: number;
  readonly verdict: JudiciaryVerdict;
}

/** Judiciary verdicts of every asset (BTC published; ETH, SOL, TAO feed their Ghost Traders). */
export interface VerdictRepository {
  /** Idempotent per id. */
  save(entry: StoredVerdict): Promise<void>;
  /** The newest verdict of `asset` at or before `at` (default: the newest of all), or null. */
  latest(asset: Asset, at?: number): Promise<StoredVerdict | null>;
  byId(id: string): Promise<StoredVerdict | null>;
  /** The verdicts of `asset` made after `after` and at or before `upTo`, oldest first. */
  between(asset: Asset, after: number, upTo: number): Promise<StoredVerdict[]>;
}

/** Retention (docs: verdicts are kept 30 days of market time); implemented by both adapters. */
export interface VerdictPruning {
  /** Deletes verdicts of `asset` evaluated before `before`; returns how many went. */
  pruneBefore(asset: Asset, before: number): Promise<number>;
}
