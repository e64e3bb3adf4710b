/**
 * Per-asset network and sector figures the councils read beyond the 27 public signals (SPEC
 * SOL agent table, DECISIONS 7): Solana throughput and staking for SOL's NETWORK_SENTINEL, the AI
 * sector's market-cap change for TAO's AI_NARRATIVE and CENTRALIZED_AI_OVERHANG. Only live
 * providers deliver them; the bundled history has no such series.
 */
export const NETWORK_FIGURE_KEYS = ["SOL_NETWORK_TPS", "SOL_NETWORK_TPS_CHANGE", "SOL_STAKING_PARTICIPATION", "AI_SECTOR_CHANGE_24H"] as const;
export type NetworkFigureKey = (typeof NETWORK_FIGURE_KEYS)[number];

/** One observation of a figure, like a SignalReading but outside the 27-signal catalogue. */
export interface NetworkFigure {
  readonly key: NetworkFigureKey;
  readonly value: number;
  /** When the provider's value describes the market, ms since epoch. */
  readonly observedAt: number;
  readonly source: string;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/**
 * Refresh interval of each figure's source. As for signals, a figure is used only while it is at
 * most twice this old, and its poller runs at a twelfth of it (clamped to 1 min..1 h). Throughput
 * and the AI sector move within the hour; active stake changes only at epoch boundaries (~2 days).
 */
export const FIGURE_REFRESH_MS: Readonly<Record<NetworkFigureKey, number>> = {
  SOL_NETWORK_TPS: HOUR,
  SOL_NETWORK_TPS_CHANGE: HOUR,
  SOL_STAKING_PARTICIPATION: DAY,
  AI_SECTOR_CHANGE_24H: HOUR,
};

/** What the councils read as of a market time; null where there is no fresh observation. */
export interface NetworkFigures {
  /** Non-vote transactions per second over the newest hour of samples. */
  readonly solNetworkTps: number | null;
  /** % change of that TPS against the hours of samples before it. */
  readonly solNetworkTpsChangePct: number | null;
  /** Active stake / total supply × 100. */
  readonly solStakingParticipationPct: number | null;
  /**
   * CoinGecko "artificial-intelligence" category market-cap change over 24 h, in %, with the
   * 20th percentile of its own observed history (null until that history is long enough).
   */
  readonly aiSector: { readonly change24hPct: number; readonly percentile20: number | null } | null;
}

/** Replay, and live before the first successful poll. */
export const NO_NETWORK_FIGURES: NetworkFigures = {
  solNetworkTps: null,
  solNetworkTpsChangePct: null,
  solStakingParticipationPct: null,
  aiSector: null,
};
