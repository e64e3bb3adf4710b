import type { AgentVote, CouncilAsset, CouncilInput, CouncilSession } from "../../../src/domain/council/council-types.js";
import { ROSTERS } from "../../../src/domain/council/rosters.js";
import type { TaoRuling } from "../../../src/domain/market/vocabulary.js";
import { BULLISH_BTC, readings } from "../judiciary/fixtures.js";

export const T0 = Date.UTC(2025, 4, 14, 12, 0, 0);

const ASSET_BULLISH = { RSI_1H: 35, RSI_4H: 38, EMA200_DISTANCE: 3, MACD_HIST: 0.5, VOLUME_RATIO: 1.4, REALIZED_VOL: 60, FUNDING_RATE: 0.0, BTC_RATIO_TREND: 4, DEFI_TVL_TREND: 6 };
const SHARED = { US10Y: 3.8, DXY: 99, GOLD: 2300, BTC_NASDAQ_CORR: 0.4, FEAR_GREED_INDEX: 40, BTC_DOMINANCE: 56, BTC_EMA200_DISTANCE: 2 };

/** A replay-like picture: real-sourced inputs LIVE, the rest simply absent (DEAD). */
export function councilInput(asset: CouncilAsset, over: Partial<CouncilInput> = {}): CouncilInput {
  const values = asset === "BTC" ? BULLISH_BTC : { ...ASSET_BULLISH, ...SHARED };
  return {
    asset,
    at: T0,
    regime: "BULL_TRENDING",
    price: asset === "BTC" ? 100_000 : asset === "SOL" ? 150 : 400,
    readings: readings(values),
    calendar: { status: "CLEAR", hoursUntilTier1: null },
    snapshotSignals: asset === "TAO" ? { tao_price: 400, rsi_1h: 35, ema_200: 388 } : {},
    ...(asset === "TAO" ? { tao: { liquidityStatus: "UNKNOWN", lastHourRangePct: 1.2, volumeRatio: 1.4, aiSentiment: null } } : {}),
    ...over,
  } as CouncilInput;
}

export function vote(agent: string, ruling: TaoRuling, confidence: number, source: AgentVote["source"] = "model"): AgentVote {
  return { agent, ruling, confidence, thesis: `${agent} says ${ruling}`, source, missing: [] };
}

/** One vote per agent of the roster, all the same unless overridden by name. */
export function votes(asset: CouncilAsset, ruling: TaoRuling, confidence: number, over: Record<string, [TaoRuling, number]> = {}): AgentVote[] {
  return ROSTERS[asset].agents.map((a) => {
    const o = over[a.name];
    return o ? vote(a.name, o[0], o[1]) : vote(a.name, ruling, confidence);
  });
}

/**
 * A stored BTC session the language model answered in, unanimous at the model's 0.8 for one
 * side (BUY when `up`, else SELL): the history a council-mode calibration map is fitted on.
 */
export function modelSession(at: number, up: boolean): CouncilSession {
  const ruling = up ? "BUY" : "SELL";
  return {
    id: `model-${at}`,
    asset: "BTC",
    at,
    mode: "council",
    ruling,
    confidence: 0.5,
    rawConfidence: 0.8,
    score: up ? 47.5 : -47.5,
    consensus: up ? "BULLISH" : "BEARISH",
    consensusLevel: "UNANIMOUS",
    votes: votes("BTC", ruling, 0.8),
    agentsSucceeded: 6,
    agentsFailed: 0,
    vetoedBy: [],
    riskFlags: [],
    chiefRationale: "r",
    plainExplanation: "e",
    explanationSource: "model",
    snapshotSignals: {},
  };
}
