import type { TableSpec } from "./csv-table.js";

const OHLCV: TableSpec = { timeColumn: "timestamp", valueColumns: ["open", "high", "low", "close", "volume"] };
const daily = (...valueColumns: string[]): TableSpec => ({ timeColumn: "date", valueColumns });

/** Every bundled file the replay feed reads (market-data/README.md names sources and terms). */
export const DATASET_FILES = {
  btc_1h: { file: "btc_usdt_1h_binance.csv.gz", spec: OHLCV },
  eth_1h: { file: "eth_usdt_1h_binance.csv.gz", spec: OHLCV },
  sol_1h: { file: "sol_usdt_1h_binance.csv.gz", spec: OHLCV },
  tao_1h: { file: "tao_usdt_1h_binance.csv.gz", spec: OHLCV },
  tao_1h_kucoin: { file: "tao_usdt_1h_kucoin.csv.gz", spec: OHLCV },
  tao_4h: { file: "tao_usdt_4h_binance.csv.gz", spec: OHLCV },
  funding_btc: { file: "funding_btcusdt_perp_binance.csv.gz", spec: { timeColumn: "timestamp", valueColumns: ["funding_rate"] } },
  funding_eth: { file: "funding_ethusdt_perp_binance.csv.gz", spec: { timeColumn: "timestamp", valueColumns: ["funding_rate"] } },
  funding_sol: { file: "funding_solusdt_perp_binance.csv.gz", spec: { timeColumn: "timestamp", valueColumns: ["funding_rate"] } },
  fear_greed: { file: "fear_greed_index_daily.csv.gz", spec: daily("value") },
  us10y: { file: "macro_us10y_dgs10_daily.csv.gz", spec: daily("yield_pct") },
  dxy: { file: "macro_dxy_close_daily.csv.gz", spec: daily("close") },
  gold: { file: "macro_gold_futures_close_daily.csv.gz", spec: daily("close_usd_oz") },
  ndx: { file: "macro_nasdaq100_ndx_close_daily.csv.gz", spec: daily("close") },
  vix: { file: "macro_vix_vixcls_daily.csv.gz", spec: daily("value") },
  fed_funds: { file: "macro_fed_funds_target_upper_daily.csv.gz", spec: daily("rate_pct") },
  btc_onchain: { file: "btc_onchain_coinmetrics_daily.csv.gz", spec: daily("mvrv_cur", "market_cap_usd", "price_usd") },
  eth_onchain: { file: "eth_onchain_coinmetrics_daily.csv.gz", spec: daily("mvrv_cur", "market_cap_usd") },
  hashrate: { file: "btc_hashrate_difficulty_daily.csv.gz", spec: daily("hashrate_th_s") },
  etf_flow: { file: "btc_spot_etf_netflow_daily.csv.gz", spec: daily("net_flow_usd_mn") },
  dvol: { file: "btc_dvol_daily.csv.gz", spec: daily("dvol_close") },
  stablecoins: { file: "stablecoin_total_supply_daily.csv.gz", spec: daily("total_supply_usd") },
  sol_tvl: { file: "sol_chain_tvl_daily_defillama.csv.gz", spec: daily("tvl_usd") },
} as const satisfies Record<string, { file: string; spec: TableSpec }>;

export type DatasetTableName = keyof typeof DATASET_FILES;

export const CALENDAR_FILE = "us_economic_calendar_2023_2026.csv.gz";
