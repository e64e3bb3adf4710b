import type { CouncilAsset, CouncilSession } from "../../domain/council/council-types.js";

/** Council sessions of BTC, TAO and SOL, each with every agent's vote; trades point at them by id. */
export interface CouncilSessionRepository {
  /** Idempotent per session id. */
  save(session: CouncilSession): Promise<void>;
  /** The newest session of `asset` at or before `at` (default: the newest of all), or null. */
  latest(asset: CouncilAsset, at?: number): Promise<CouncilSession | null>;
  /** The newest session of `asset` in which the language model answered (council_mode), or null. */
  latestWithModel(asset: CouncilAsset, at?: number): Promise<CouncilSession | null>;
  byId(id: string): Promise<CouncilSession | null>;
  /**
   * Sessions of `asset` the language model answered in (council mode) with `from` < at ≤ `to`,
   * oldest first: the graded history a council-mode calibration map is fitted on.
   */
  modelSessionsBetween(asset: CouncilAsset, from: number, to: number): Promise<CouncilSession[]>;
}
