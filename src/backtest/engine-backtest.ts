import { runBacktest, type BacktestReport } from "../domain/ghost/backtest.js";
import type { BarInput, JudiciaryView, RegimeView } from "../domain/ghost/bar-input.js";
import { DEFAULT_COSTS, type CostModel } from "../domain/ghost/costs.js";
import type { SignalAtEntry } from "../domain/ghost/trade.js";
import { evaluateJudiciary } from "../domain/judiciary/evaluate.js";
import type { Regime } from "../domain/market/vocabulary.js";
import { DEFAULT_WINDOW_BARS } from "../domain/regime/walk-forward.js";
import { buildFeatures, FEATURE_WARMUP_BARS } from "../domain/regime/features.js";
import { DEAD_FLOWS, withFlowContext } from "../domain/regime/flow-context.js";
import { evaluateHysteresis, INITIAL_HYSTERESIS, type HysteresisState } from "../domain/regime/hysteresis.js";
import { OnlineFilter } from "../domain/regime/online-filter.js";
import { trainRegimeModel, type RegimeModel } from "../domain/regime/regime-model.js";
import { standardize } from "../domain/regime/standardizer.js";
import { breakoutImminent } from "../domain/regime/strength.js";
import type { Candle } from "../domain/signals/reading.js";
import { SIGNAL_KEYS, type Asset, type SignalKey } from "../domain/signals/signal-keys.js";
import type { MarketFeed } from "../feeds/market-feed.js";
import type { StoredVerdict } from "../store/ports/verdicts.js";
import { councilSessionId } from "../domain/council/session-id.js";
import { verdictId } from "../domain/judiciary/verdict-id.js";
import { councilViewAt, type CouncilGateSession } from "../application/ghost-bar-source.js";
import { judiciaryInputAt } from "../application/judiciary-inputs.js";
import { calibratedStream, type RulingStream } from "../application/ruling-streams.js";
import type { CalibratedHour } from "../domain/calibration/walk-forward-calibrator.js";

const HOUR = 3_600_000;
/** As walkForward: the filter runs a week before a refit's first published bar. */
const FILTER_LEAD_BARS = 168;
const SIGNAL_KEY_SET: ReadonlySet<string> = new Set(SIGNAL_KEYS);

/** Regime settings of a backtest; fewer restarts than the service (10) keep a run short. */
export interface RegimeTimelineOptions {
  /** Bars between refits (default 168: weekly, as the RegimeActor). */
  readonly refitEveryBars?: number;
  /** Seeded restarts per refit (default 1; refits are warm-started from the previous model). */
  readonly restarts?: number;
}

export const BACKTEST_REGIME_DEFAULTS = { refitEveryBars: 168, restarts: 1 } as const;

/** The published BTC regime per hourly bar (keyed by bar open time) over [from, to). */
export type RegimeTimeline = ReadonlyMap<number, RegimeView>;

/**
 * The market regime as the service would have published it, per hourly BTC bar (the RegimeActor
 * models BTC, and every engine reads that one regime): the walk-forward schedule of
 * src/domain/regime/walk-forward.ts. Training reaches back one window plus the feature warm-up
 * before `from`, so the first bar of the range already has a regime.
 */
export function regimeTimeline(feed: MarketFeed, from: number, to: number, options: RegimeTimelineOptions = {}): RegimeTimeline {
  const windowBars = DEFAULT_WINDOW_BARS;
  const every = options.refitEveryBars ?? BACKTEST_REGIME_DEFAULTS.refitEveryBars;
  const restarts = options.restarts ?? BACKTEST_REGIME_DEFAULTS.restarts;
  const candles = barsBetween(feed, "BTC", from - (windowBars + FEATURE_WARMUP_BARS + 1) * HOUR, to);
  const out = new Map<number, RegimeView>();
  let hysteresis: HysteresisState = INITIAL_HYSTERESIS;
  let previous: RegimeModel | undefined;
  // `walkForward`'s schedule, with the RegimeActor's failure rule: a refit that fails (a degenerate
  // window) keeps the previous model instead of ending the run.
  for (let start = FEATURE_WARMUP_BARS + windowBars; start < candles.length; start += every) {
    const end = Math.min(start + every, candles.length);
    let model: RegimeModel | undefined = previous;
    try {
      model = trainRegimeModel(candles.slice(start - windowBars - FEATURE_WARMUP_BARS, start), {
        trainedAt: (candles[start] as Candle).t,
        restarts,
        ...(previous !== undefined ? { previous } : {}),
      });
    } catch {
      if (previous === undefined) continue;
    }
    if (model === undefined) continue;
    previous = model;
    const lead = Math.max(0, start - FILTER_LEAD_BARS - FEATURE_WARMUP_BARS);
    const features = buildFeatures(candles.slice(lead, end));
    const obs = standardize(features.obs, model.standardizer);
    const filter = new OnlineFilter(model.params);
    const firstPublished = start - lead - features.firstBar;
    for (let r = 0; r < obs.t; r++) {
      const post = filter.step(obs.data, r * obs.d);
      if (r < firstPublished) continue;
      const t = features.times[r] as number;
      const probabilities = new Map<Regime, number>();
      for (let k = 0; k < model.params.k; k++) {
        const regime = withFlowContext(model.labels[k] as Regime, DEAD_FLOWS).regime;
        probabilities.set(regime, (probabilities.get(regime) ?? 0) + (post[k] as number));
      }
      hysteresis = evaluateHysteresis(hysteresis, probabilities, t).state;
      const regime = hysteresis.regime as Regime;
      const confidence = Math.min(1, probabilities.get(regime) ?? 0);
      if (t >= from) out.set(t, { regime, confidence, breakoutImminent: breakoutImminent(regime, confidence) });
    }
  }
  return out;
}

/** Hourly bars of `asset` whose open time is in [from, to), oldest first. */
export function barsBetween(feed: MarketFeed, asset: Asset, from: number, to: number): Candle[] {
  const limit = Math.max(0, Math.ceil((to - from) / HOUR)) + 1;
  return feed.candles(asset, "1h", to, limit).filter((c) => c.t >= from && c.t < to);
}

function judiciaryView(v: StoredVerdict): JudiciaryView {
  const signals: SignalAtEntry[] = v.verdict.evidence
    .filter((e) => SIGNAL_KEY_SET.has(e.key) && e.value !== null)
    .map((e) => ({ key: e.key as SignalKey, value: e.value, contribution: e.contribution }));
  const raw = v.verdict.rawConfidence;
  return { ruling: v.verdict.ruling, confidence: v.verdict.confidence, ...(raw === undefined ? {} : { rawConfidence: raw }), verdictId: v.id, signals };
}

/**
 * The Ghost Trader's inputs at each bar close of `asset`, built by the service's engines in
 * memory (nothing is stored): the asset's Judiciary verdict at the close, the judiciary-mode
 * council session at the close with its calibrated confidence (BTC, SOL, TAO; on a BLACKOUT day the
 * previous session stays the newest, as in the store), the regime from the timeline and the
 * indicators from the feed, exactly as `FeedBarSource` reads them. Liquidity is UNKNOWN (replay).
 */
export async function engineBarInputs(feed: MarketFeed, asset: Asset, bars: readonly Candle[], regimes: RegimeTimeline): Promise<BarInput[]> {
  const out: BarInput[] = [];
  let session: CouncilGateSession | null = null;
  // The published (calibrated) confidence of each hourly verdict: the walk-forward stream the
  // service's EvidenceActor and the verdict export compute (issue 16), so the gates see what the
  // service's Ghost Traders see.
  const calibrated = await calibratedHours(feed, { kind: "verdict", asset }, bars);
  // The council sessions' too: the council gate reads the session's own calibrated confidence.
  const councilCalibrated = asset === "ETH" ? new Map<number, CalibratedHour>() : await calibratedHours(feed, { kind: "council", asset }, bars);
  for (const candle of bars) {
    const close = candle.t + HOUR;
    const regime = regimes.get(candle.t) ?? null;
    const regimeName: Regime | null = regime?.regime ?? null;
    const raw = evaluateJudiciary(asset, judiciaryInputAt(feed, asset, close, regimeName));
    const row = calibrated.get(close);
    // The regime enters the engine only through adaptive multipliers, 1.0 here: same score.
    if (row === undefined || row.score !== raw.score || row.ruling !== raw.ruling) throw new Error(`calibrated stream disagrees with the engine at ${new Date(close).toISOString()}`);
    const verdict: StoredVerdict = { id: verdictId(asset, close), at: close, verdict: { ...raw, confidence: row.confidence, rawConfidence: raw.confidence } };
    // The council's judiciary-mode session at this close, as the calibrated stream deliberated it
    // (`councilHourAt`: the same `deliberate`; the regime reaches the rule agents only through
    // multipliers, 1.0 here). A BLACKOUT hour has none: the session before stays the newest.
    const hour = councilCalibrated.get(close);
    if (asset !== "ETH" && hour !== undefined) session = { id: councilSessionId(asset, close), at: close, ruling: hour.ruling, confidence: hour.confidence };
    const tech = feed.technicals(asset, "1h", close)?.values ?? null;
    out.push({
      asset,
      candle,
      judiciary: judiciaryView(verdict),
      // A BLACKOUT day pauses the council: the session before it does not gate that day's bars.
      council: councilViewAt(close, session),
      regime,
      indicators: {
        rsi1h: tech?.rsi14 ?? null,
        ema200: tech?.ema200 ?? null,
        volumeRatio: tech?.volumeRatio ?? null,
        rsiLow12h: rsiLow(feed, asset, close),
      },
      liquidity: { status: "UNKNOWN", depthUsd: null, live: false },
      extras: { assetBtcRatio: feed.assetFeatures(asset, close).ratioToBtc.value, networkHealth: asset === "SOL" ? "UNKNOWN" : null },
    });
  }
  return out;
}

/** A stream's walk-forward calibrated rows at the closes of `bars`, by close time. */
async function calibratedHours(feed: MarketFeed, stream: RulingStream, bars: readonly Candle[]): Promise<Map<number, CalibratedHour>> {
  const byClose = new Map<number, CalibratedHour>();
  if (bars.length === 0) return byClose;
  const first = (bars[0] as Candle).t + HOUR;
  const last = (bars[bars.length - 1] as Candle).t + HOUR;
  for (const row of (await calibratedStream(feed, stream, first, last)).rows) byClose.set(row.at, row);
  return byClose;
}

/** Lowest RSI(1 h) over the 12 bars ending at `close` (same rule as FeedBarSource). */
function rsiLow(feed: MarketFeed, asset: Asset, close: number): number | null {
  let low: number | null = null;
  for (let k = 0; k < 12; k++) {
    const rsi = feed.technicals(asset, "1h", close - k * HOUR)?.values.rsi14 ?? null;
    if (rsi !== null && (low === null || rsi < low)) low = rsi;
  }
  return low;
}

export interface EngineBacktestOptions {
  readonly assets: readonly Asset[];
  /** Market time range of bar open times, [from, to); each asset is clipped to its own history. */
  readonly from: number;
  readonly to: number;
  readonly regime?: RegimeTimelineOptions;
  readonly costs?: CostModel;
}

export interface EngineBacktestResult {
  readonly reports: readonly BacktestReport[];
  readonly timings: { readonly regimeMs: number; readonly perAssetMs: Readonly<Partial<Record<Asset, number>>>; readonly totalMs: number };
}

/**
 * The Ghost Traders over history with the real engines (judiciary verdicts, judiciary-mode
 * councils and gate, walk-forward regime) and the same `stepGhost` the actors run. Trades are
 * `synthetic`; nothing is written anywhere, so the service's track record is never touched.
 */
export async function runEngineBacktest(feed: MarketFeed, options: EngineBacktestOptions): Promise<EngineBacktestResult> {
  const t0 = performance.now();
  const regimes = regimeTimeline(feed, options.from, options.to, options.regime);
  const regimeMs = performance.now() - t0;
  const reports: BacktestReport[] = [];
  const perAssetMs: Partial<Record<Asset, number>> = {};
  for (const asset of options.assets) {
    const ta = performance.now();
    // The feed's indicators already see all history before `from`: no warm-up bars are skipped.
    const bars = barsBetween(feed, asset, options.from, options.to);
    const inputs = await engineBarInputs(feed, asset, bars, regimes);
    reports.push(runBacktest(asset, inputs, options.costs ?? DEFAULT_COSTS));
    perAssetMs[asset] = performance.now() - ta;
  }
  return { reports, timings: { regimeMs, perAssetMs, totalMs: performance.now() - t0 } };
}
