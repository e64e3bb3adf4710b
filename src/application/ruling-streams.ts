import { deliberate } from "../domain/council/deliberate.js";
import { ROSTERS } from "../domain/council/rosters.js";
import type { CouncilAsset } from "../domain/council/council-types.js";
import { evaluateJudiciary } from "../domain/judiciary/evaluate.js";
import { PricePathBuilder, type PricePath } from "../domain/calibration/price-path.js";
import { WalkForwardCalibrator, type CalibratedHour, type ScoredHour } from "../domain/calibration/walk-forward-calibrator.js";
import { DEFAULT_CALIBRATION, type CalibrationMap, type CalibrationSettings } from "../domain/calibration/calibration-map.js";
import type { Asset } from "../domain/signals/signal-keys.js";
import type { MarketFeed } from "../feeds/market-feed.js";
import { councilInputAt, judiciaryInputAt } from "./judiciary-inputs.js";
import { ScoredHourMemo, type AgentScoredHour, type MemoHour } from "./scored-hour-memo.js";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/**
 * The ruling streams the service publishes and calibrates: each asset's Judiciary verdict, and
 * the BTC, TAO and SOL councils. Streams are sampled at every hourly bar close.
 */
export type RulingStream =
  | { readonly kind: "verdict"; readonly asset: Asset }
  | { readonly kind: "council"; readonly asset: CouncilAsset }
  /** One council agent's rule votes (judiciary mode), e.g. `agent:BTC:TECH HAWK`. */
  | { readonly kind: "agent"; readonly asset: CouncilAsset; readonly agent: string };

export const streamId = (s: RulingStream): string => (s.kind === "agent" ? `agent:${s.asset}:${s.agent}` : `${s.kind}:${s.asset}`);

/** A council hour with its agents' rule votes (an abstaining agent has none): one deliberation feeds seven streams. */
export interface CouncilHour extends ScoredHour {
  readonly agents: readonly AgentScoredHour[];
}

/**
 * What the stream's engine rules at `at`, from the feed as of `at` only. Regime-dependent
 * adaptive multipliers are left at 1.0 here: the regime enters the engines only through them,
 * and the map is fitted on the engines' own scores (docs/evaluation.md). A council session
 * is in judiciary mode (rule agents), as in every warm-up and backtest; a BLACKOUT hour is null.
 */
export async function scoredHourAt(feed: MarketFeed, stream: RulingStream, at: number): Promise<ScoredHour | null> {
  if (stream.kind === "council") {
    const hour = await councilHourAt(feed, stream.asset, at);
    return hour === null ? null : { at, ruling: hour.ruling, score: hour.score };
  }
  if (stream.kind === "agent") {
    const vote = (await councilHourAt(feed, stream.asset, at))?.agents.find((a) => a.agent === stream.agent);
    return vote === undefined ? null : { at, ruling: vote.ruling, score: vote.score };
  }
  return memoised(feed, streamId(stream), at, () => verdictHour(feed, stream.asset, at));
}

/** The council's judiciary-mode session at `at` with its agents' rule votes; a BLACKOUT hour is null. */
export async function councilHourAt(feed: MarketFeed, asset: CouncilAsset, at: number): Promise<CouncilHour | null> {
  const deliberated = async (): Promise<CouncilHour | null> => {
    const outcome = await deliberate(councilInputAt(feed, asset, at, null), { advisor: null, newId: () => "stream" });
    if (outcome.kind !== "session") return null;
    const s = outcome.session;
    const agents = s.votes.flatMap((v) => (v.source === "rule" && v.score !== undefined ? [{ agent: v.agent, at, ruling: v.ruling, score: v.score }] : []));
    return { at, ruling: s.ruling, score: s.score, agents };
  };
  return memoised(feed, `council:${asset}`, at, deliberated, ROSTER_NAMES[asset]);
}

/** Each council's agents in roster order, the order its votes come in (a constant of the rosters). */
const ROSTER_NAMES: Readonly<Record<CouncilAsset, readonly string[]>> = {
  BTC: ROSTERS.BTC.agents.map((a) => a.name),
  TAO: ROSTERS.TAO.agents.map((a) => a.name),
  SOL: ROSTERS.SOL.agents.map((a) => a.name),
};

/** `roster`: a council's agents, in the order its votes come in (the memo rebuilds them so). */
async function memoised<T extends MemoHour>(feed: MarketFeed, id: string, at: number, score: () => Promise<T | null> | T | null, roster: readonly string[] = []): Promise<T | null> {
  const memo = feed.mode === "replay" ? memoOf(feed, id, roster) : null;
  const hit = memo?.get(at);
  if (hit !== undefined) return hit as T | null;
  const scored = await score();
  memo?.set(at, scored);
  return scored;
}

/**
 * Scored hours of an immutable replay feed, per feed object and stream. Safe as a process-local
 * cache: a replay feed never changes, so every replica computes exactly these values (nothing
 * here is a truth replicas must agree on through the store); it spares a second EvidenceActor
 * activation in one process (a restart, a test) the recomputation. Live feeds are never memoised.
 */
const memos = new WeakMap<MarketFeed, Map<string, ScoredHourMemo>>();

function memoOf(feed: MarketFeed, id: string, roster: readonly string[]): ScoredHourMemo {
  let byStream = memos.get(feed);
  if (byStream === undefined) {
    byStream = new Map();
    memos.set(feed, byStream);
  }
  let memo = byStream.get(id);
  if (memo === undefined) {
    memo = new ScoredHourMemo(roster);
    byStream.set(id, memo);
  }
  return memo;
}

function verdictHour(feed: MarketFeed, asset: Asset, at: number): ScoredHour {
  const v = evaluateJudiciary(asset, judiciaryInputAt(feed, asset, at, null));
  return { at, ruling: v.ruling, score: v.score };
}

/** Hourly closing prices of `asset` (t = the bar's close) for bars closed at or before `to`. */
export function pricePath(feed: MarketFeed, asset: Asset, to: number): PricePath {
  const known = new PricePathBuilder();
  extendPricePath(feed, asset, known, to);
  return known.path();
}

/**
 * Appends to `known` (a path of `asset`'s bars) the bars closed after its last one and at or
 * before `to`, reading only those from the feed. A path rebuilt whole is ~30,000 candles per
 * call, and its garbage collection held the event loop for tens of milliseconds each time.
 * Bars already in `known` are not read again: a replay's never change, and a live bar's
 * backfilled revision older than the newest is not picked up (docs/decisions.md).
 */
export function extendPricePath(feed: MarketFeed, asset: Asset, known: PricePathBuilder, to: number): void {
  const last = known.lastTime();
  if (last !== null && to <= last) return;
  const limit = last === null ? 24 * 366 * 12 : Math.ceil((to - last) / HOUR) + 1;
  for (const c of feed.candles(asset, "1h", to, limit)) {
    const t = c.t + HOUR;
    const newest = known.lastTime();
    if ((newest === null || t > newest) && t <= to) known.push(t, c.c);
  }
}

/** How far before the first published row the calibrator must start to be exact (window + horizon + a day). */
export function calibrationLeadMs(settings: CalibrationSettings = DEFAULT_CALIBRATION): number {
  return settings.windowDays * DAY + settings.horizonHours * HOUR + DAY;
}

export interface StreamRun {
  readonly rows: CalibratedHour[];
  /** The map in force at `to` (for the live rulings of that day). */
  readonly map: CalibrationMap;
}

/** Yields to the event loop between chunks, so a long replay never starves HTTP. */
export type Pause = () => Promise<void>;
const noPause: Pause = () => Promise.resolve();

/**
 * The stream as the service publishes it, hour by hour over [from, to]: each row's confidence
 * from the walk-forward map of its day. The calibrator starts `calibrationLeadMs` before `from`,
 * which makes every row identical to what a run from the start of the data would give.
 */
export async function calibratedStream(
  feed: MarketFeed,
  stream: RulingStream,
  from: number,
  to: number,
  options: { readonly settings?: CalibrationSettings; readonly pause?: Pause; readonly chunk?: number } = {},
): Promise<StreamRun> {
  const settings = options.settings ?? DEFAULT_CALIBRATION;
  const pause = options.pause ?? noPause;
  const chunk = options.chunk ?? 500;
  const prices = pricePath(feed, stream.asset, to);
  const calibrator = new WalkForwardCalibrator(streamId(stream), prices, settings);
  const start = from - calibrationLeadMs(settings);
  const rows: CalibratedHour[] = [];
  let n = 0;
  for (let i = 0; i < prices.length; i++) {
    const t = prices.timeAt(i);
    if (t < start) continue;
    const scored = await scoredHourAt(feed, stream, t);
    if (scored !== null) {
      const row = calibrator.calibrate(scored);
      if (t >= from) rows.push(row);
    }
    if (++n % chunk === 0) await pause();
  }
  return { rows, map: calibrator.mapAt(to) };
}
