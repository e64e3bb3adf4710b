/** The 27 public signals (DECISIONS 4): the single list every capability keys on. */
export const SIGNAL_CATEGORIES = [
  "onchain",
  "macro",
  "options",
  "liquidity",
  "liquidation",
  "technical",
  "derivatives",
  "sentiment",
] as const;
export type SignalCategory = (typeof SIGNAL_CATEGORIES)[number];

export const SIGNAL_KEYS = [
  "SOPR",
  "MVRV_ZSCORE",
  "NUPL",
  "HASH_RIBBON",
  "EXCHANGE_NETFLOW",
  "US10Y",
  "DXY",
  "GOLD",
  "BTC_NASDAQ_CORR",
  "PUT_CALL_RATIO",
  "DVOL",
  "OPTIONS_OI",
  "STABLECOIN_MINT",
  "WHALE_FLOW",
  "ENTITY_PRESSURE",
  "LIQ_DIRECTIONAL_BIAS",
  "LIQ_CASCADE_RISK",
  "LIQ_PROXIMITY_ALERT",
  "BTC_RSI",
  "BTC_EMA200_DISTANCE",
  "BTC_MACD_HIST",
  "BTC_REALIZED_VOL",
  "BTC_VOLUME_RATIO",
  "BTC_FUNDING_RATE",
  "BTC_OPEN_INTEREST",
  "BTC_DOMINANCE",
  "FEAR_GREED_INDEX",
] as const;
export type SignalKey = (typeof SIGNAL_KEYS)[number];

export const SIGNAL_STATUSES = ["LIVE", "STALE", "DEAD"] as const;
export type SignalStatus = (typeof SIGNAL_STATUSES)[number];

export const ASSETS = ["BTC", "ETH", "SOL", "TAO"] as const;
export type Asset = (typeof ASSETS)[number];
