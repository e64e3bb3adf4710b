import { context } from "../judiciary/btc-rules.js";
import { clampUnit, linear, rule, type ContributionRule } from "../judiciary/contribution-rule.js";

/**
 * Falling throughput means users are leaving or the network is degrading; neither is good for
 * SOL. A rise is not read as bullish (spam and bot bursts raise TPS too), and the comparison of
 * the last hour with the hours before carries a daily cycle, so the first −10 % is ignored.
 */
export function tpsChangeContribution(v: number): number {
  return v >= -10 ? 0 : clampUnit((v + 10) / 40);
}

/**
 * Stake leaving validators (below 60 % of supply) turns into liquid supply that can be sold and
 * weakens the network's economic security; full weight at 50 %. Solana has held roughly
 * 65-70 % for years, so above 60 % there is no lean: a level near its norm says nothing new.
 */
export function stakingContribution(v: number): number {
  return v >= 60 ? 0 : clampUnit((v - 60) / 10);
}

/**
 * TAO stake must be unstaked before it can be sold, so a falling staking ratio is supply on its
 * way to market (bearish), full weight at −2 percentage points a week. A rising one takes supply
 * off the market but is only mildly bullish (at most +0.5): emissions flow into stake and lift
 * the ratio without anyone choosing to lock more. Within ±0.25 pp there is no lean, so that
 * drift and day-to-day noise do not read as a trend. Thresholds are changes, not levels: what
 * ratio is "normal" for TAO has moved with each protocol change and cannot be checked offline.
 */
export function taoStakingTrendContribution(pp: number): number {
  if (pp <= -0.25) return clampUnit((pp + 0.25) / 1.75);
  if (pp >= 0.25) return 0.5 * clampUnit((pp - 0.25) / 1.75);
  return 0;
}

/**
 * New subnets are teams paying (in TAO) to build on Bittensor: demand for the token and a bet on
 * the network, so mildly bullish, +0.5 at +10 % in 30 days. A flat or falling count
 * has no lean: once the subnet limit is reached a new registration replaces a pruned subnet, so
 * the count stops moving whatever the demand, and a drop comes from governance, not the market.
 */
export function taoSubnetTrendContribution(pct: number): number {
  return pct <= 0 ? 0 : 0.5 * clampUnit(pct / 10);
}

/**
 * Council-only inputs (they have no Judiciary rule table): the live SOL network, AI-sector and
 * Bittensor figures the NETWORK_SENTINEL, LIQUIDITY_GUARDIAN (SOL), AI_NARRATIVE and
 * SUBNET_ORACLE (TAO) agents read.
 */
export const NETWORK_RULES: Readonly<Record<string, ContributionRule>> = {
  NETWORK_TPS: context("Network TPS (non-vote, 1h)", " tx/s", "the throughput level has no direction alone; its change is read instead"),
  NETWORK_TPS_TREND: rule("Network TPS change (1h vs prior hours)", "%", "falling throughput is users leaving or a degrading network (bearish) beyond −10%; full weight at −50%", tpsChangeContribution),
  STAKING_PARTICIPATION: rule("Staking participation", "% of supply", "stake leaving validators below 60% is bearish; full weight at 50%", stakingContribution),
  AI_SENTIMENT: rule("AI sector market cap (24h)", "%", "the AI-token sector rising pulls TAO with it (bullish), falling drags it (bearish); full weight at ±10%", linear(0, 10)),
  TAO_STAKING_RATIO: context("TAO staking ratio", "% of issuance", "the level has no direction alone; its 7-day change is read instead"),
  TAO_STAKING_RATIO_TREND: rule(
    "TAO staking ratio change (7d)",
    " pp",
    "unstaking comes before selling: a falling ratio beyond −0.25 pp is bearish, full weight at −2 pp; a rising one mildly bullish, at most +0.5",
    taoStakingTrendContribution,
  ),
  TAO_SUBNET_COUNT: context("TAO subnets", "", "the count has no direction alone; its 30-day change is read instead"),
  TAO_SUBNET_COUNT_TREND: rule("TAO subnet count change (30d)", "%", "new subnets are builders and TAO demand (mildly bullish, +0.5 at +10%); flat or falling has no lean", taoSubnetTrendContribution),
};
