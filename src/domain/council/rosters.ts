import { RULINGS, SOL_RULINGS, TAO_RULINGS } from "../market/vocabulary.js";
import type { CouncilAsset, CouncilRoster } from "./council-types.js";

/**
 * BTC council (SPEC "BTC council session"). SPEC gives no weights for BTC: each agent carries
 * an equal sixth. Inputs are the DECISIONS 4 signal categories of each domain.
 */
const BTC: CouncilRoster = {
  asset: "BTC",
  voteRulings: RULINGS,
  entryThreshold: 0.65,
  agents: [
    { name: "CHAIN ORACLE", weight: 1 / 6, veto: false, domain: "on-chain: holder profitability, valuation, miners, exchange flows", inputs: ["SOPR", "MVRV_ZSCORE", "NUPL", "HASH_RIBBON", "EXCHANGE_NETFLOW"] },
    { name: "MACRO SAGE", weight: 1 / 6, veto: false, domain: "macro: Treasury yields, the dollar, gold, correlation with equities", inputs: ["US10Y", "DXY", "GOLD", "BTC_NASDAQ_CORR"] },
    { name: "SENTIMENT MONK", weight: 1 / 6, veto: false, domain: "sentiment and positioning: Fear & Greed, dominance, funding, put/call", inputs: ["FEAR_GREED_INDEX", "BTC_DOMINANCE", "BTC_FUNDING_RATE", "PUT_CALL_RATIO"] },
    { name: "TECH HAWK", weight: 1 / 6, veto: false, domain: "technical: RSI, EMA 200 distance, MACD, volume", inputs: ["BTC_RSI", "BTC_EMA200_DISTANCE", "BTC_MACD_HIST", "BTC_VOLUME_RATIO"] },
    { name: "LIQUIDITY GUARDIAN", weight: 1 / 6, veto: false, domain: "liquidity depth: stablecoin supply, whale and ETF flows, open interest", inputs: ["STABLECOIN_MINT", "WHALE_FLOW", "ENTITY_PRESSURE", "BTC_OPEN_INTEREST", "OPTIONS_OI"] },
    { name: "RISK SHIELD", weight: 1 / 6, veto: false, domain: "risk: implied and realized volatility, liquidation pressure", inputs: ["DVOL", "BTC_REALIZED_VOL", "LIQ_DIRECTIONAL_BIAS", "LIQ_CASCADE_RISK", "LIQ_PROXIMITY_ALERT"] },
  ],
};

/**
 * TAO council (SPEC "TAO verdict"). No weights in SPEC: equal sixths. LIQUIDITY_GUARDIAN and
 * RISK_WARDEN carry the AVOID veto of DECISIONS 7. SUBNET_ORACLE reads what the chain itself
 * holds (stake, issuance, subnet count; per-subnet activity would need an indexer). Its inputs and
 * AI_NARRATIVE's have no bundled source, so in replay they abstain rather than guess.
 */
const TAO: CouncilRoster = {
  asset: "TAO",
  voteRulings: TAO_RULINGS,
  entryThreshold: 0.72,
  agents: [
    {
      name: "SUBNET_ORACLE",
      weight: 1 / 6,
      veto: false,
      domain: "TAO network on-chain: subnet count, staking ratio",
      inputs: ["TAO_STAKING_RATIO", "TAO_STAKING_RATIO_TREND", "TAO_SUBNET_COUNT", "TAO_SUBNET_COUNT_TREND"],
    },
    { name: "MACRO_SAGE", weight: 1 / 6, veto: false, domain: "macro: Treasury yields, the dollar, gold, correlation with equities", inputs: ["US10Y", "DXY", "GOLD", "BTC_NASDAQ_CORR"] },
    { name: "AI_NARRATIVE", weight: 1 / 6, veto: false, domain: "AI-sector sentiment", inputs: ["AI_SENTIMENT"] },
    { name: "MOMENTUM_HUNTER", weight: 1 / 6, veto: false, domain: "price momentum and technicals: RSI 1h/4h, MACD, EMA 200 distance", inputs: ["RSI_1H", "RSI_4H", "MACD_HIST", "EMA200_DISTANCE"] },
    { name: "LIQUIDITY_GUARDIAN", weight: 1 / 6, veto: true, domain: "order book and on-chain liquidity: depth, volume, funding", inputs: ["LIQUIDITY_DEPTH_USD", "VOLUME_RATIO", "FUNDING_RATE"] },
    { name: "RISK_WARDEN", weight: 1 / 6, veto: true, domain: "risk and tail events: volatility, relative weakness, crowd euphoria", inputs: ["REALIZED_VOL", "BTC_RATIO_TREND", "FEAR_GREED_INDEX"] },
  ],
};

/** SOL council: weights, vetoes and domains exactly as SPEC's table. */
const SOL: CouncilRoster = {
  asset: "SOL",
  voteRulings: SOL_RULINGS,
  entryThreshold: 0.65,
  agents: [
    { name: "NETWORK_SENTINEL", weight: 0.2, veto: false, domain: "TPS, network health, staking participation", inputs: ["NETWORK_TPS", "NETWORK_TPS_TREND", "STAKING_PARTICIPATION"] },
    { name: "MACRO_SAGE", weight: 0.15, veto: false, domain: "DXY, US10Y, BTC dominance, Fear & Greed, BTC trend", inputs: ["DXY", "US10Y", "BTC_DOMINANCE", "FEAR_GREED_INDEX", "BTC_EMA200_DISTANCE"] },
    { name: "ECOSYSTEM_ANALYST", weight: 0.2, veto: false, domain: "DeFi TVL, memecoin activity, SOL/BTC ratio", inputs: ["DEFI_TVL_TREND", "MEMECOIN_ACTIVITY", "BTC_RATIO_TREND"] },
    { name: "MOMENTUM_HUNTER", weight: 0.2, veto: false, domain: "RSI 1H/4H, MACD, EMA distance, SOL funding rate", inputs: ["RSI_1H", "RSI_4H", "MACD_HIST", "EMA200_DISTANCE", "FUNDING_RATE"] },
    { name: "LIQUIDITY_GUARDIAN", weight: 0.1, veto: true, domain: "funding squeeze, TPS execution risk, whale exchange flows", inputs: ["FUNDING_RATE", "NETWORK_TPS", "WHALE_EXCHANGE_FLOW"] },
    { name: "RISK_WARDEN", weight: 0.15, veto: true, domain: "tail risks, outages, memecoin crash risk, exploits", inputs: ["REALIZED_VOL", "NETWORK_OUTAGE", "MEMECOIN_CRASH_RISK"] },
  ],
};

export const ROSTERS: Readonly<Record<CouncilAsset, CouncilRoster>> = { BTC, TAO, SOL };

export function entryThreshold(asset: CouncilAsset): number {
  return ROSTERS[asset].entryThreshold;
}
