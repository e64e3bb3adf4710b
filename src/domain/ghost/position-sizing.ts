import { floorSize, positive } from "./money.js";

/**
 * Fixed-fractional risk sizing: a stop-out costs about RISK_PER_TRADE of equity. With the 3 %
 * stop, 1 % risk buys a position of a third of equity; the notional is capped at the whole
 * equity (no leverage in a spot paper account). Fees are left out of the risk budget on purpose:
 * they are known and small (0.2 % round trip), and leaving them out keeps the rule readable.
 */
export const RISK_PER_TRADE = 0.01;
export const STARTING_EQUITY_USD = 10_000;

export function positionSize(equityUsd: number, entryPrice: number, stopPrice: number): number {
  positive(equityUsd, "equity");
  positive(entryPrice, "entry price");
  const stopDistance = entryPrice - stopPrice;
  if (!(stopDistance > 0)) throw new RangeError(`stop ${stopPrice} must be below entry ${entryPrice}`);
  const riskNotional = (equityUsd * RISK_PER_TRADE * entryPrice) / stopDistance;
  return floorSize(Math.min(riskNotional, equityUsd) / entryPrice);
}
