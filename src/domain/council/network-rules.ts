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
 * Council-only inputs (they have no Judiciary rule table): the live SOL network and AI-sector
 * figures the NETWORK_SENTINEL, LIQUIDITY_GUARDIAN (SOL) and AI_NARRATIVE (TAO) agents read.
 */
export const NETWORK_RULES: Readonly<Record<string, ContributionRule>> = {
  NETWORK_TPS: context("Network TPS (non-vote, 1h)", " tx/s", "the throughput level has no direction alone; its change is read instead"),
  NETWORK_TPS_TREND: rule("Network TPS change (1h vs prior hours)", "%", "falling throughput is users leaving or a degrading network (bearish) beyond −10%; full weight at −50%", tpsChangeContribution),
  STAKING_PARTICIPATION: rule("Staking participation", "% of supply", "stake leaving validators below 60% is bearish; full weight at 50%", stakingContribution),
  AI_SENTIMENT: rule("AI sector market cap (24h)", "%", "the AI-token sector rising pulls TAO with it (bullish), falling drags it (bearish); full weight at ±10%", linear(0, 10)),
};
