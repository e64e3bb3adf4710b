import { SIGNAL_KEYS, type SignalCategory, type SignalKey } from "./signal-keys.js";

export type FeedMode = "replay" | "live";

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;
/**
 * US market series publish on trading days only; a long weekend leaves 72 h between two
 * observations, so their nominal interval is two days (LIVE then spans Fri close → Tue close).
 */
const TRADING_DAY_SERIES = 2 * DAY;

/** Where a signal's value comes from in one mode, and how often that source refreshes. */
export interface SignalSource {
  /** Provider id, as used in `SignalReading.source` prefixes and per-provider health. */
  readonly provider: string;
  /** The exact series or endpoint and the derivation applied, for the docs' catalogue table. */
  readonly detail: string;
  readonly refreshMs: number;
}

export interface SignalDefinition {
  readonly key: SignalKey;
  readonly displayName: string;
  readonly category: SignalCategory;
  readonly unit: string;
  readonly formula: string;
  /** null: no real source in that mode, so the signal is DEAD there (never simulated). */
  readonly sources: Readonly<Record<FeedMode, SignalSource | null>>;
}

function src(provider: string, detail: string, refreshMs: number): SignalSource {
  return { provider, detail, refreshMs };
}

const BTC_1H_REPLAY = (derivation: string): SignalSource =>
  src("replay:btc_usdt_1h_binance", `Binance BTC/USDT 1 h candles; ${derivation}`, HOUR);
const BTC_1H_LIVE = (derivation: string): SignalSource =>
  src("binance", `ccxt binance fetchOHLCV BTC/USDT 1h; ${derivation}`, HOUR);

const DEFINITIONS: readonly SignalDefinition[] = [
  {
    key: "SOPR",
    displayName: "SOPR",
    category: "onchain",
    unit: "ratio",
    formula: "spent output profit ratio",
    // No free public SOPR series exists (Coin Metrics community does not carry it).
    sources: { replay: null, live: null },
  },
  {
    key: "MVRV_ZSCORE",
    displayName: "MVRV Z-Score",
    category: "onchain",
    unit: "z",
    formula: "(market cap − realized cap) / stdev(market cap, all history to date, from 2013-01-01 in both modes, where the bundled file starts); realized cap = market cap / MVRV",
    sources: {
      replay: src("replay:btc_onchain_coinmetrics_daily", "Coin Metrics CapMVRVCur, CapMrktCurUSD (daily)", DAY),
      live: src("coinmetrics", "Coin Metrics community API CapMVRVCur, CapMrktCurUSD (daily)", DAY),
    },
  },
  {
    key: "NUPL",
    displayName: "NUPL",
    category: "onchain",
    unit: "ratio",
    formula: "1 − 1/MVRV",
    sources: {
      replay: src("replay:btc_onchain_coinmetrics_daily", "Coin Metrics CapMVRVCur (daily)", DAY),
      live: src("coinmetrics", "Coin Metrics community API CapMVRVCur (daily)", DAY),
    },
  },
  {
    key: "HASH_RIBBON",
    displayName: "Hash Ribbon",
    category: "onchain",
    unit: "ratio",
    formula: "30-day mean hash rate / 60-day mean hash rate (< 1: miner capitulation)",
    sources: {
      replay: src("replay:btc_hashrate_difficulty_daily", "daily hash rate (TH/s)", DAY),
      live: src("coinmetrics", "Coin Metrics community API HashRate (daily)", DAY),
    },
  },
  {
    key: "EXCHANGE_NETFLOW",
    displayName: "Exchange Flow",
    category: "onchain",
    unit: "BTC",
    formula: "exchange inflow − outflow",
    // No bundled or free public exchange-flow series was found.
    sources: { replay: null, live: null },
  },
  {
    key: "US10Y",
    displayName: "US10Y",
    category: "macro",
    unit: "%",
    formula: "10-year Treasury constant-maturity yield",
    sources: {
      replay: src("replay:macro_us10y_dgs10_daily", "FRED DGS10", TRADING_DAY_SERIES),
      live: src("fred", "FRED DGS10 (fredgraph.csv)", TRADING_DAY_SERIES),
    },
  },
  {
    key: "DXY",
    displayName: "DXY",
    category: "macro",
    unit: "index",
    formula: "ICE US Dollar Index daily close",
    sources: {
      replay: src("replay:macro_dxy_close_daily", "Yahoo Finance DX-Y.NYB close", TRADING_DAY_SERIES),
      live: src("yahoo", "Yahoo Finance chart API DX-Y.NYB", TRADING_DAY_SERIES),
    },
  },
  {
    key: "GOLD",
    displayName: "Gold",
    category: "macro",
    unit: "USD/oz",
    formula: "COMEX gold front-month daily close",
    sources: {
      replay: src("replay:macro_gold_futures_close_daily", "Yahoo Finance GC=F close", TRADING_DAY_SERIES),
      live: src("yahoo", "Yahoo Finance chart API GC=F", TRADING_DAY_SERIES),
    },
  },
  {
    key: "BTC_NASDAQ_CORR",
    displayName: "BTC-NASDAQ Correlation",
    category: "macro",
    unit: "pearson",
    formula: "Pearson correlation of the last 30 paired daily returns, BTC (UTC-day close) vs Nasdaq-100",
    sources: {
      replay: src(
        "replay:macro_nasdaq100_ndx_close_daily",
        "Yahoo Finance ^NDX close and Binance BTC/USDT daily closes",
        TRADING_DAY_SERIES,
      ),
      live: src("yahoo", "Yahoo Finance chart API ^NDX and Binance BTC/USDT daily closes", TRADING_DAY_SERIES),
    },
  },
  {
    key: "PUT_CALL_RATIO",
    displayName: "Put/Call Ratio",
    category: "options",
    unit: "ratio",
    formula: "BTC options open interest, puts / calls",
    sources: {
      replay: null,
      live: src("deribit", "Deribit public/get_book_summary_by_currency BTC option", HOUR),
    },
  },
  {
    key: "DVOL",
    displayName: "DVOL",
    category: "options",
    unit: "%",
    formula: "Deribit BTC 30-day implied volatility index",
    sources: {
      replay: src("replay:btc_dvol_daily", "Deribit DVOL daily close", DAY),
      live: src("deribit", "Deribit public/get_volatility_index_data BTC", HOUR),
    },
  },
  {
    key: "OPTIONS_OI",
    displayName: "Options OI",
    category: "options",
    unit: "BTC",
    formula: "total BTC options open interest",
    sources: {
      replay: null,
      live: src("deribit", "Deribit public/get_book_summary_by_currency BTC option", HOUR),
    },
  },
  {
    key: "STABLECOIN_MINT",
    displayName: "Stablecoin Mint",
    category: "liquidity",
    unit: "USD mn",
    formula: "7-day change of total USD stablecoin supply",
    sources: {
      replay: src("replay:stablecoin_total_supply_daily", "DefiLlama total stablecoin supply (daily)", DAY),
      live: src("defillama", "DefiLlama stablecoins API stablecoincharts/all", DAY),
    },
  },
  {
    key: "WHALE_FLOW",
    displayName: "Whale Flow",
    category: "liquidity",
    unit: "BTC",
    formula: "net flow of large holders",
    // No bundled or free public whale-flow series was found.
    sources: { replay: null, live: null },
  },
  {
    key: "ENTITY_PRESSURE",
    displayName: "Entity Pressure",
    category: "liquidity",
    unit: "USD mn",
    formula: "7-day sum of US spot BTC ETF net flows",
    sources: {
      replay: src("replay:btc_spot_etf_netflow_daily", "Farside Investors US spot BTC ETF net flow", TRADING_DAY_SERIES),
      // Farside publishes an HTML table only; no API to poll.
      live: null,
    },
  },
  {
    key: "LIQ_DIRECTIONAL_BIAS",
    displayName: "Directional Bias",
    category: "liquidation",
    unit: "ratio",
    formula: "(long − short liquidated USD) / (long + short) over the last closed UTC hour, −1..1 (positive: longs force-sold); 0 when nothing was liquidated",
    // Binance's forceOrder stream is a WebSocket snapshot (at most one order per second) with no
    // history to poll; Gate publishes every liquidation with its position side over REST.
    sources: {
      replay: null,
      live: src("gate", "ccxt gate fetchLiquidations BTC/USDT:USDT (Gate USDT-M liq_orders, BTC_USDT); USD = abs(size) × contract size × fill price (order price when unfilled)", HOUR),
    },
  },
  {
    key: "LIQ_CASCADE_RISK",
    displayName: "Cascade Risk",
    category: "liquidation",
    unit: "x",
    formula: "liquidated USD of the last closed UTC hour / hourly mean of the 24 closed hours ending with it, 0..24 (1 = an average hour); 0 when nothing was liquidated in those 24 h",
    sources: {
      replay: null,
      live: src("gate", "ccxt gate fetchLiquidations BTC/USDT:USDT (Gate USDT-M liq_orders, BTC_USDT), 24 hourly windows", HOUR),
    },
  },
  {
    key: "LIQ_PROXIMITY_ALERT",
    displayName: "Proximity Alert",
    category: "liquidation",
    unit: "flag",
    formula: "liquidation cluster within 2% of price",
    // Needs a liquidation-level map, which no free public API provides.
    sources: { replay: null, live: null },
  },
  {
    key: "BTC_RSI",
    displayName: "BTC RSI (1H)",
    category: "technical",
    unit: "0-100",
    formula: "RSI(14), Wilder smoothing, 1 h closes",
    sources: { replay: BTC_1H_REPLAY("RSI(14)"), live: BTC_1H_LIVE("RSI(14)") },
  },
  {
    key: "BTC_EMA200_DISTANCE",
    displayName: "BTC EMA-200 Distance",
    category: "technical",
    unit: "%",
    formula: "(close − EMA(200)) / EMA(200) × 100, 1 h closes",
    sources: { replay: BTC_1H_REPLAY("EMA(200) distance"), live: BTC_1H_LIVE("EMA(200) distance") },
  },
  {
    key: "BTC_MACD_HIST",
    displayName: "BTC MACD Histogram",
    category: "technical",
    unit: "USD",
    formula: "MACD(12, 26, 9) histogram, 1 h closes",
    sources: { replay: BTC_1H_REPLAY("MACD(12,26,9)"), live: BTC_1H_LIVE("MACD(12,26,9)") },
  },
  {
    key: "BTC_REALIZED_VOL",
    displayName: "BTC Realized Volatility",
    category: "technical",
    unit: "% annualized",
    formula: "stdev of the last 720 hourly log returns (30 days) × √8760 × 100",
    sources: { replay: BTC_1H_REPLAY("30-day realized volatility"), live: BTC_1H_LIVE("30-day realized volatility") },
  },
  {
    key: "BTC_VOLUME_RATIO",
    displayName: "BTC Volume Ratio",
    category: "technical",
    unit: "x",
    formula: "last 1 h volume / mean volume of the 24 hours before it",
    sources: { replay: BTC_1H_REPLAY("volume ratio"), live: BTC_1H_LIVE("volume ratio") },
  },
  {
    key: "BTC_FUNDING_RATE",
    displayName: "BTC Funding Rate",
    category: "derivatives",
    unit: "% per 8h",
    formula: "Binance BTCUSDT perpetual funding rate × 100",
    sources: {
      replay: src("replay:funding_btcusdt_perp_binance", "Binance USDT-M BTCUSDT funding (8 h)", 8 * HOUR),
      live: src("binance", "ccxt binanceusdm fetchFundingRateHistory BTC/USDT:USDT (last settled)", 8 * HOUR),
    },
  },
  {
    key: "BTC_OPEN_INTEREST",
    displayName: "BTC Open Interest",
    category: "derivatives",
    unit: "BTC",
    formula: "Binance BTCUSDT perpetual open interest",
    sources: { replay: null, live: src("binance", "ccxt binanceusdm fetchOpenInterest BTC/USDT:USDT", HOUR) },
  },
  {
    key: "BTC_DOMINANCE",
    displayName: "BTC Dominance",
    category: "sentiment",
    unit: "%",
    formula: "BTC market cap / total crypto market cap × 100",
    // No total-market-cap series is bundled (DECISIONS 7).
    sources: { replay: null, live: src("coingecko", "CoinGecko /global market_cap_percentage.btc", HOUR) },
  },
  {
    key: "FEAR_GREED_INDEX",
    displayName: "Fear & Greed Index",
    category: "sentiment",
    unit: "0-100",
    formula: "alternative.me Crypto Fear & Greed Index",
    sources: {
      replay: src("replay:fear_greed_index_daily", "alternative.me daily index", DAY),
      live: src("alternative.me", "api.alternative.me/fng", DAY),
    },
  },
];

/** The catalogue in SIGNAL_KEYS order; a lookup by key that cannot miss. */
export const SIGNAL_CATALOGUE: Readonly<Record<SignalKey, SignalDefinition>> = Object.fromEntries(
  DEFINITIONS.map((d) => [d.key, d]),
) as Record<SignalKey, SignalDefinition>;

export const CATALOGUE_IN_ORDER: readonly SignalDefinition[] = SIGNAL_KEYS.map((k) => SIGNAL_CATALOGUE[k]);

export function signalSource(key: SignalKey, mode: FeedMode): SignalSource | null {
  return SIGNAL_CATALOGUE[key].sources[mode];
}
