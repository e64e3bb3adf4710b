import type { Regime } from "../market/vocabulary.js";
import type { LiquidityView } from "./bar-input.js";
import type { CostModel } from "./costs.js";
import { taoCurrentTrade } from "./current-trade-view.js";
import type { GateReport } from "./entry-gates.js";
import type { GhostState } from "./ghost-trader.js";
import { paperModeAfterSignoff, paperTradesValidated } from "./ghost-stats.js";
import type { ClosedTrade } from "./trade.js";

export interface TaoStatusInputs {
  readonly state: GhostState;
  /** Gates evaluated on the latest closed bar (null before the first one, or once it is not current). */
  readonly gates: GateReport | null;
  /** The trigger shown when `gates` is null: why no gate board is shown. */
  readonly noGatesReason: string;
  readonly liquidity: LiquidityView;
  /** The latest TAO/USD, null when there is no current one (no bar in the last 2 hours). */
  readonly taoPrice: number | null;
  /** The last known close, current or not: an open trade is marked at it. */
  readonly markPrice: number | null;
  readonly rsi1h: number | null;
  readonly ema200: number | null;
  readonly regime: Regime | null;
  readonly ledger: readonly ClosedTrade[];
  readonly sinceMs: number;
  readonly signedOff: boolean;
  readonly costs: CostModel;
  readonly generatedAt: string;
}

/**
 * SPEC "TAO status" without `latestVerdict` (the council's) and the cache fields. Gates shown are
 * those of the latest bar even while in a trade, so a reader sees what a new entry would face;
 * `gates.liquidityStatus` mirrors the top-level value as it is (DECISIONS 4).
 */
export function taoStatusView(i: TaoStatusInputs) {
  const pos = i.state.position;
  const validated = paperTradesValidated(i.ledger, i.sinceMs);
  const g = i.gates;
  return {
    status: pos === null ? ("WAITING" as const) : ("IN_TRADE" as const),
    currentTrade: pos === null ? null : taoCurrentTrade(pos, i.markPrice ?? pos.entryPrice, i.costs),
    regime: i.regime,
    rsi1h: i.rsi1h,
    ema200: i.ema200,
    taoPrice: i.taoPrice,
    networkHealth: "HEALTHY" as const,
    liquidityStatus: i.liquidity.status,
    liquidityDepthUsd: i.liquidity.depthUsd,
    paperTradesValidated: validated,
    paperMode: paperModeAfterSignoff(validated, i.signedOff),
    generatedAt: i.generatedAt,
    gates: {
      liquidity: g?.liquidity ?? false,
      liquidityStatus: i.liquidity.status,
      judiciary: g?.judiciary ?? false,
      council: g?.council ?? false,
      emaProximity: g?.emaProximity ?? false,
      regime: g?.regime ?? false,
      quality: g?.quality ?? false,
      momentum: g?.momentum ?? false,
      session: g?.session ?? false,
      gatesMet: g?.gatesMet ?? 0,
      trigger: g === null ? i.noGatesReason : g.trigger,
    },
  };
}
