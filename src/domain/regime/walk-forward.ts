import type { Regime } from "../market/vocabulary.js";
import type { Candle } from "../signals/reading.js";
import { buildFeatures, FEATURE_WARMUP_BARS } from "./features.js";
import { withFlowContext, DEAD_FLOWS, type FlowContext } from "./flow-context.js";
import { evaluateHysteresis, INITIAL_HYSTERESIS, type HysteresisState } from "./hysteresis.js";
import { OnlineFilter } from "./online-filter.js";
import { trainRegimeModel, type RegimeModel } from "./regime-model.js";
import { standardize } from "./standardizer.js";

export interface WalkForwardOptions {
  /** Training window in bars (default 180 days). */
  readonly windowBars?: number;
  /** Bars between refits (default one week). */
  readonly refitEveryBars?: number;
  /** Bars the filter runs before a refit's first published bar, to forget its start. */
  readonly filterLeadBars?: number;
  readonly states?: number;
  readonly seed?: number;
  readonly restarts?: number;
  readonly maxIterations?: number;
  /** Flow signals as known at a time (DEAD everywhere when omitted). */
  readonly flowsAt?: (t: number) => FlowContext;
}

export interface WalkForwardPoint {
  /** Open time of the bar. */
  readonly t: number;
  /** Published regime after the hysteresis rule. */
  readonly regime: Regime;
  /** Filtered probability of the published regime at this bar. */
  readonly confidence: number;
  /** The regime the model favoured at this bar before hysteresis. */
  readonly raw: Regime;
}

export const DEFAULT_WINDOW_BARS = 180 * 24;
export const DEFAULT_REFIT_EVERY_BARS = 168;
const DEFAULT_FILTER_LEAD_BARS = 168;

/**
 * The fitting schedule of issue 6, replayed over history: refit on a trailing window every week
 * (warm-started from the previous model), filter hour by hour between refits with the current
 * model, and publish through the hysteresis rule. Every published bar uses only bars up to it and
 * a model trained on bars before it: the output is what the live service would have said.
 */
export function walkForward(candles: readonly Candle[], options: WalkForwardOptions = {}): WalkForwardPoint[] {
  const windowBars = options.windowBars ?? DEFAULT_WINDOW_BARS;
  const every = options.refitEveryBars ?? DEFAULT_REFIT_EVERY_BARS;
  const lead = options.filterLeadBars ?? DEFAULT_FILTER_LEAD_BARS;
  const flowsAt = options.flowsAt ?? (() => DEAD_FLOWS);
  const points: WalkForwardPoint[] = [];
  let hysteresis: HysteresisState = INITIAL_HYSTERESIS;
  let previous: RegimeModel | undefined;
  for (let start = FEATURE_WARMUP_BARS + windowBars; start < candles.length; start += every) {
    const end = Math.min(start + every, candles.length);
    const model: RegimeModel = trainRegimeModel(candles.slice(start - windowBars - FEATURE_WARMUP_BARS, start), {
      trainedAt: (candles[start] as Candle).t,
      ...(options.states !== undefined ? { states: options.states } : {}),
      ...(options.seed !== undefined ? { seed: options.seed } : {}),
      ...(options.restarts !== undefined ? { restarts: options.restarts } : {}),
      ...(options.maxIterations !== undefined ? { maxIterations: options.maxIterations } : {}),
      ...(previous !== undefined ? { previous } : {}),
    });
    previous = model;
    const from = Math.max(0, start - lead - FEATURE_WARMUP_BARS);
    const features = buildFeatures(candles.slice(from, end));
    const obs = standardize(features.obs, model.standardizer);
    const filter = new OnlineFilter(model.params);
    const firstPublished = start - from - features.firstBar;
    for (let r = 0; r < obs.t; r++) {
      const post = filter.step(obs.data, r * obs.d);
      if (r < firstPublished) continue;
      const t = features.times[r] as number;
      const flows = flowsAt(t);
      const probabilities = new Map<Regime, number>();
      for (let s = 0; s < model.params.k; s++) {
        const regime = withFlowContext(model.labels[s] as Regime, flows).regime;
        probabilities.set(regime, (probabilities.get(regime) ?? 0) + (post[s] as number));
      }
      const step = evaluateHysteresis(hysteresis, probabilities, t);
      hysteresis = step.state;
      let raw: Regime = hysteresis.regime as Regime;
      let best = -1;
      for (const [regime, p] of probabilities) {
        if (p > best) {
          best = p;
          raw = regime;
        }
      }
      const regime = hysteresis.regime as Regime;
      points.push({ t, regime, confidence: Math.min(1, probabilities.get(regime) ?? 0), raw });
    }
  }
  return points;
}
