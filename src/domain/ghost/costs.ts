import { positive } from "./money.js";

/**
 * Paper fills are charged like a real spot account so a paper record is not flattering:
 *  - fee on every fill, as a fraction of notional: Binance spot taker 0.10 %;
 *  - slippage, adverse, on market orders only: entries (at the next bar's open), time exits (at
 *    a bar's close) and exits when a bar opens through a stop (gap). Resting stop and take-profit
 *    levels touched inside a bar fill at their own price, so "a stop at 97 fills at 97, minus fees".
 */
export interface CostModel {
  readonly feeRate: number;
  readonly slippageRate: number;
}

export const DEFAULT_COSTS: CostModel = { feeRate: 0.001, slippageRate: 0.0005 };

export const ZERO_COSTS: CostModel = { feeRate: 0, slippageRate: 0 };

export function marketBuyPrice(reference: number, costs: CostModel): number {
  return positive(reference, "price") * (1 + costs.slippageRate);
}

export function marketSellPrice(reference: number, costs: CostModel): number {
  return positive(reference, "price") * (1 - costs.slippageRate);
}

export function feeUsd(price: number, size: number, costs: CostModel): number {
  return price * size * costs.feeRate;
}
