/**
 * Per-asset network and sector figures the councils read beyond the 27 public signals (SPEC
 * SOL agent table, DECISIONS 7): Solana throughput and staking for SOL's NETWORK_SENTINEL, the AI
 * sector's market-cap change for TAO's AI_NARRATIVE and CENTRALIZED_AI_OVERHANG, the Bittensor
 * chain's staking ratio and subnet count for TAO's SUBNET_ORACLE. Only live providers deliver
 * them; the bundled history has no such series.
 */
export const NETWORK_FIGURE_KEYS = [
  "SOL_NETWORK_TPS",
  "SOL_NETWORK_TPS_CHANGE",
  "SOL_STAKING_PARTICIPATION",
  "AI_SECTOR_CHANGE_24H",
  "TAO_STAKING_RATIO",
  "TAO_SUBNET_COUNT",
] as const;
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
 * TAO stake changes with every block but slowly in sum, and subnets register a few a month: hourly
 * is plenty, and it gives the hourly history their 7- and 30-day changes are read from.
 */
export const FIGURE_REFRESH_MS: Readonly<Record<NetworkFigureKey, number>> = {
  SOL_NETWORK_TPS: HOUR,
  SOL_NETWORK_TPS_CHANGE: HOUR,
  SOL_STAKING_PARTICIPATION: DAY,
  AI_SECTOR_CHANGE_24H: HOUR,
  TAO_STAKING_RATIO: HOUR,
  TAO_SUBNET_COUNT: HOUR,
};

/**
 * Windows of the TAO changes. A week smooths out single large unstakes and the weekday cycle yet
 * still flags a distribution while it is under way; subnets register only a few a month, so over
 * a shorter window their count barely moves.
 */
export const TAO_STAKING_TREND_WINDOW_MS = 7 * DAY;
export const TAO_SUBNET_TREND_WINDOW_MS = 30 * DAY;

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
  /** Bittensor TotalStake / TotalIssuance × 100. */
  readonly taoStakingRatioPct: number | null;
  /**
   * Percentage-point change of that ratio over TAO_STAKING_TREND_WINDOW_MS, from the feed's own
   * hourly history: null until a value that old exists.
   */
  readonly taoStakingRatioChange7dPct: number | null;
  /** Bittensor TotalNetworks: registered subnets (the root network included). */
  readonly taoSubnetCount: number | null;
  /** % change of the subnet count over TAO_SUBNET_TREND_WINDOW_MS, from the same history. */
  readonly taoSubnetCountChange30dPct: number | null;
}

/** Replay, and live before the first successful poll. */
export const NO_NETWORK_FIGURES: NetworkFigures = {
  solNetworkTps: null,
  solNetworkTpsChangePct: null,
  solStakingParticipationPct: null,
  aiSector: null,
  taoStakingRatioPct: null,
  taoStakingRatioChange7dPct: null,
  taoSubnetCount: null,
  taoSubnetCountChange30dPct: null,
};
