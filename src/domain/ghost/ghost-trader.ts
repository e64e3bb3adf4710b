import type { Asset } from "../signals/signal-keys.js";
import type { AssetRules } from "./asset-rules.js";
import type { BarInput } from "./bar-input.js";
import { marketBuyPrice, feeUsd, type CostModel } from "./costs.js";
import { evaluateGates, type GateReport } from "./entry-gates.js";
import { entryMode } from "./entry-mode.js";
import { initialStop } from "./exit-levels.js";
import { roundUsd } from "./money.js";
import { applyBar } from "./position-exits.js";
import { positionSize, STARTING_EQUITY_USD } from "./position-sizing.js";
import { tradeId } from "./trade-id.js";
import type { ClosedTrade, EntryMode, ExitFill, OpenPosition, TradeOrigin } from "./trade.js";

const HOUR_MS = 3_600_000;

/** Charting `ghost_status` (DECISIONS 4); TAO's WAITING/IN_TRADE derive from it. */
export type GhostStatus = "WAITING" | "READY" | "IN_POSITION";

/** An entry decided at a bar close, filled at the next bar's open (the first price after it). */
export interface PendingEntry {
  readonly decidedAt: number;
  readonly mode: EntryMode;
  readonly report: GateReport;
  readonly input: BarInput;
}

/**
 * The whole state of one asset's Ghost Trader: a plain JSON value, so an actor can persist it
 * after every step and a restarted host resumes mid-trade with the same stop and high-water mark.
 */
export interface GhostState {
  readonly asset: Asset;
  readonly origin: TradeOrigin;
  /**
   * Starting equity plus the net P&L of every fill of the current sprint's trades (USD, cents):
   * what entries are sized from. A restart resets it (`startSprint`).
   */
  readonly equityUsd: number;
  readonly position: OpenPosition | null;
  readonly pending: PendingEntry | null;
  /** Open time of the last bar applied; older or repeated bars are ignored (idempotent steps). */
  readonly lastBarT: number | null;
  readonly lastGates: GateReport | null;
  /**
   * Signals decided but not yet confirmed as emitted (transactional outbox). The actor persists
   * the state with its outbox first, then emits, then persists `ackSignals(state)`: a crash
   * between the steps re-emits (receivers de-duplicate on the delivery id) but never loses an
   * entry or exit event, and the idempotent step never re-decides it.
   */
  readonly outbox: readonly GhostSignal[];
  /**
   * The sprint mark (`ghost restart`) the equity belongs to: null before the trader has seen one;
   * absent in states stored before restarts reset equity, which keep the equity they carry.
   */
  readonly sprintMarkId?: string | null;
  /**
   * A position entered before the current sprint began: it lives on to its exits, but its P&L
   * belongs to the sprint it was entered in, so its fills leave `equityUsd` alone.
   */
  readonly carriedTradeId?: string | null;
}

export type GhostAction = "ENTRY" | "TP1" | "EXIT";

/** `ghost.signal` data of DECISIONS 5, plus the market time the fill happened. */
export interface GhostSignal {
  readonly at: number;
  readonly asset: Asset;
  readonly action: GhostAction;
  readonly trade_id: string;
  readonly price: number;
  readonly size: number;
  readonly mode: EntryMode;
  readonly reason: string;
  readonly pnl_usd: number | null;
  readonly is_paper: boolean;
}

export interface StepResult {
  readonly state: GhostState;
  readonly signals: readonly GhostSignal[];
  readonly closed: readonly ClosedTrade[];
  /** True when anything the actor must persist changed (entry, fill, ratchet, pending, gates). */
  readonly changed: boolean;
}

export function initialGhostState(asset: Asset, origin: TradeOrigin, equityUsd = STARTING_EQUITY_USD): GhostState {
  return { asset, origin, equityUsd, position: null, pending: null, lastBarT: null, lastGates: null, outbox: [], sprintMarkId: null, carriedTradeId: null };
}

/**
 * A `ghost restart` is a clean slate (DECISIONS 4 counts "clean-slate restarts"): the new sprint
 * sizes its trades from the starting equity, as its % figures and its random-entry benchmark
 * assume; an open position is carried to its exits outside the new sprint's equity.
 */
export function startSprint(state: GhostState, markId: string): GhostState {
  return { ...state, equityUsd: STARTING_EQUITY_USD, sprintMarkId: markId, carriedTradeId: state.position?.id ?? null };
}

/** Marks every signal in the outbox as emitted. */
export function ackSignals(state: GhostState): GhostState {
  return state.outbox.length === 0 ? state : { ...state, outbox: [] };
}

export function ghostStatus(state: GhostState): GhostStatus {
  if (state.position !== null) return "IN_POSITION";
  return state.pending !== null ? "READY" : "WAITING";
}

/**
 * A stored status as of `now`: READY means "entry at the next bar's open", and a pending entry is
 * cancelled when the next bar is not the one right after the decision (step 1 below). So once the
 * trader's last bar is no longer current (`barIsCurrent` false: an outage, the end of the history)
 * that entry has lapsed and the trader is WAITING. IN_POSITION stays: the position is still open.
 */
export function statusAsOf(status: GhostStatus, barIsCurrent: boolean): GhostStatus {
  return status === "READY" && !barIsCurrent ? "WAITING" : status;
}

/**
 * Applies one closed bar. Order inside the step, each piece seeing only data up to its time:
 *  1. a pending entry fills at this bar's open (cancelled when liquidity turned INSUFFICIENT or
 *     when this bar is not the one right after the decision);
 *  2. the open position (new or old) lives through this bar's range: stop, TP1, TP2, trail, time;
 *  3. the gates are evaluated at the close (the published board); with no position, and none
 *     closed in this bar (one bar of cool-down, so an exit and a new entry never share a bar),
 *     all met → READY.
 * A bar at or before `lastBarT` changes nothing: reminders that fire twice, concurrently or after
 * a restart never enter twice or exit twice.
 */
export function stepGhost(state: GhostState, input: BarInput, rules: AssetRules, costs: CostModel): StepResult {
  if (input.asset !== state.asset) throw new RangeError(`bar of ${input.asset} sent to the ${state.asset} trader`);
  const bar = input.candle;
  if (state.lastBarT !== null && bar.t <= state.lastBarT) return { state, signals: [], closed: [], changed: false };

  const signals: GhostSignal[] = [];
  const closed: ClosedTrade[] = [];
  let equityUsd = state.equityUsd;
  let position = state.position;
  let carriedTradeId = state.carriedTradeId ?? null;

  // A decision is good for the bar right after it only: after a data gap or an outage the
  // market has moved on, so a stale READY is dropped and the gates are asked again.
  const fresh = state.pending !== null && bar.t === state.pending.decidedAt + HOUR_MS;
  if (state.pending !== null && fresh && position === null && input.liquidity.status !== "INSUFFICIENT") {
    position = openPosition(state, state.pending, bar.o, bar.t, costs);
    signals.push(signal(state.asset, bar.t, "ENTRY", position, position.entryPrice, position.size, entryReason(state.pending), null));
  }

  if (position !== null) {
    const step = applyBar(position, bar, costs);
    const carried = position.id === carriedTradeId;
    for (const f of step.fills) {
      if (!carried) equityUsd = roundUsd(equityUsd + f.pnlUsd);
      if (f.reason === "TP1") signals.push(signal(state.asset, f.t, "TP1", position, f.price, f.size, "TP1: half closed, stop to break-even", f.pnlUsd));
    }
    if (step.closed !== null) {
      const c = step.closed;
      closed.push(c);
      if (carried) carriedTradeId = null;
      signals.push(signal(state.asset, c.exitTime, "EXIT", position, c.exitPrice, lastSize(step.fills), c.exitReason, c.pnlUsd));
    }
    position = step.position;
  }

  // The gates are read at every close, in a trade too: the board the trader publishes is what a
  // new entry would face now, not the bar that decided the open position days ago.
  const lastGates = evaluateGates(input, rules);
  const pending: PendingEntry | null =
    position === null && closed.length === 0 && lastGates.allowEntry ? { decidedAt: bar.t, mode: entryMode(input), report: lastGates, input } : null;

  const outbox = [...state.outbox, ...signals];
  const next: GhostState = { ...state, equityUsd, position, pending, lastBarT: bar.t, lastGates, outbox, carriedTradeId };
  return { state: next, signals, closed, changed: true };
}

function openPosition(state: GhostState, pending: PendingEntry, open: number, t: number, costs: CostModel): OpenPosition {
  const entryPrice = marketBuyPrice(open, costs);
  const stopLoss = initialStop(entryPrice);
  const size = positionSize(state.equityUsd, entryPrice, stopLoss);
  const { input, report, mode } = pending;
  const council = input.council;
  return {
    id: tradeId(state.asset, state.origin, t),
    asset: state.asset,
    origin: state.origin,
    mode,
    entryTime: t,
    entryPrice,
    size,
    entryFeeUsd: roundUsd(feeUsd(entryPrice, size, costs)),
    regimeAtEntry: input.regime?.regime ?? null,
    signalsAtEntry: input.judiciary?.signals ?? [],
    triggerId: council?.sessionId ?? input.judiciary?.verdictId ?? null,
    triggerKind: council !== null ? "council" : "judiciary",
    qualityScore: report.qualityScore.total,
    extras: {
      liquidityAtEntry: input.liquidity.depthUsd,
      assetBtcRatioAtEntry: input.extras.assetBtcRatio,
      networkHealthAtEntry: input.extras.networkHealth,
    },
    remaining: size,
    stopLoss,
    tp1Hit: false,
    hwm: null,
    fills: [],
  };
}

const MODE_TEXT: Readonly<Record<EntryMode, string>> = {
  A: "trend continuation",
  B: "pullback",
  C: "breakout",
};

function entryReason(p: PendingEntry): string {
  return `mode ${p.mode} (${MODE_TEXT[p.mode]}): all 8 gates met, quality ${p.report.qualityScore.total}`;
}

function lastSize(fills: readonly ExitFill[]): number {
  return fills[fills.length - 1]?.size ?? 0;
}

function signal(
  asset: Asset,
  at: number,
  action: GhostAction,
  pos: OpenPosition,
  price: number,
  size: number,
  reason: string,
  pnl: number | null,
): GhostSignal {
  return { at, asset, action, trade_id: pos.id, price, size, mode: pos.mode, reason, pnl_usd: pnl, is_paper: true };
}
