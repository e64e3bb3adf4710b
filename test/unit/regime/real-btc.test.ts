import { beforeAll, describe, expect, it } from "vitest";
import type { Candle } from "../../../src/domain/signals/reading.js";
import { buildFeatures } from "../../../src/domain/regime/features.js";
import { DEAD_FLOWS } from "../../../src/domain/regime/flow-context.js";
import { posteriors } from "../../../src/domain/regime/forward-backward.js";
import { evaluateHysteresis, INITIAL_HYSTERESIS } from "../../../src/domain/regime/hysteresis.js";
import { evaluateRegime } from "../../../src/domain/regime/regime-evaluation.js";
import { regimeModelFromJson, regimeModelToJson, trainRegimeModel, type RegimeModel } from "../../../src/domain/regime/regime-model.js";
import { regimeReport } from "../../../src/domain/regime/regime-report.js";
import { standardize } from "../../../src/domain/regime/standardizer.js";
import { regimeCurrentSchema } from "../../../src/http/schemas/regime.js";
import { loadHourlyCandles } from "../../support/csv-loader.js";

const WEEK = 168;
let btc: Candle[] = [];
const at = (iso: string) => btc.findIndex((c) => c.t >= Date.parse(iso));

/** The regime each bar gets from a model: the most probable regime of the filtered posterior. */
function regimesOver(m: RegimeModel, from: number, to: number): string[] {
  const f = buildFeatures(btc.slice(from - WEEK, to));
  const { filtered } = posteriors(m.params, standardize(f.obs, m.standardizer));
  const k = m.params.k;
  return Array.from({ length: f.obs.t }, (_, r) => {
    const agg = new Map<string, number>();
    for (let s = 0; s < k; s++) agg.set(m.labels[s]!, (agg.get(m.labels[s]!) ?? 0) + filtered[r * k + s]!);
    return [...agg].sort((a, b) => b[1] - a[1])[0]![0];
  });
}

beforeAll(() => {
  btc = loadHourlyCandles("btc_usdt_1h_binance.csv.gz", "2023-06-01", "2024-10-01");
});

describe("regime model on real BTC hours", () => {
  it("labels the same bars alike across refits (another seed; the weekly refit a week later)", () => {
    const from = at("2024-01-01");
    const to = at("2024-07-01");
    const base = trainRegimeModel(btc.slice(from - WEEK, to), { trainedAt: 0, seed: 1 });
    const reseeded = trainRegimeModel(btc.slice(from - WEEK, to), { trainedAt: 0, seed: 99 });
    // The walk-forward refit: the window moved a week, warm-started from the model it replaces.
    const shifted = trainRegimeModel(btc.slice(from, to + WEEK), { trainedAt: 0, seed: 1, previous: base });
    // Out of sample: the two months after the training window.
    const a = regimesOver(base, to, at("2024-09-01"));
    for (const other of [reseeded, shifted]) {
      const b = regimesOver(other, to, at("2024-09-01"));
      const agreement = b.filter((x, i) => x === a[i]).length / b.length;
      expect(agreement).toBeGreaterThanOrEqual(0.8);
    }
  }, 120_000);

  it("publishes a report that satisfies the response schema, and survives a JSON round trip", () => {
    const end = at("2024-07-01");
    const model = trainRegimeModel(btc.slice(end - 4000, end), { trainedAt: btc[end]!.t, seed: 5, restarts: 2 });
    const restored = regimeModelFromJson(JSON.parse(JSON.stringify(regimeModelToJson(model))));
    const window = btc.slice(end - 720, end);
    const e1 = evaluateRegime(model, window, DEAD_FLOWS);
    const e2 = evaluateRegime(restored, window, DEAD_FLOWS);
    expect(Array.from(e2.statePosterior)).toEqual(Array.from(e1.statePosterior));
    const step = evaluateHysteresis(INITIAL_HYSTERESIS, e1.probabilities, e1.at);
    const r = regimeReport(model, e1, step.state, window, e1.at + 3_600_000);
    const total = Object.values(r.transitionProbabilities).reduce((x, y) => x + y, 0);
    // Eight entries of 4 decimals each: the row sums to 1 within 8 half-units of the 4th decimal.
    expect(Math.abs(total - 1)).toBeLessThanOrEqual(0.0004 + 1e-12);
    // Published at 4 decimals, as the verdicts' confidences (the filter gives 0.9850021555130338
    // and transitions of 4.5e-29, precision the model does not have).
    const fourDecimals = (x: number) => Math.abs(x * 10_000 - Math.round(x * 10_000)) < 1e-6;
    for (const x of [r.confidence, r.chopScore ?? 0, ...Object.values(r.transitionProbabilities)]) expect(fourDecimals(x), String(x)).toBe(true);
    expect(Math.abs(r.confidence - (e1.probabilities.get(r.regime) ?? 0))).toBeLessThanOrEqual(0.00005 + 1e-12);
    // The labels read the published figure, so they agree with it at their thresholds.
    expect(r.strength).toBe(r.confidence >= 0.8 ? "STRONG" : r.confidence >= 0.6 ? "MODERATE" : "WEAK");
    const response = regimeCurrentSchema.parse({
      regime: r.regime,
      confidence: r.confidence,
      btc_price: r.btcPrice,
      detected_at: new Date(r.detectedAt).toISOString(),
      cached: false,
      cache_ttl_seconds: 300,
      strength: r.strength,
      sub_regime: r.subRegime,
      volatility_state: r.volatilityState,
      chop_score: r.chopScore,
      breakout_imminent: r.breakoutImminent,
      compatible_strategies: [...r.compatibleStrategies],
      incompatible_strategies: [...r.incompatibleStrategies],
      transition_probabilities: r.transitionProbabilities,
      regime_age_hours: r.regimeAgeHours,
    });
    expect(response.regime).toBe(r.regime);
    expect(response.regime_age_hours).toBe(1);
  }, 60_000);

  it("reloads from a store that keeps 6 significant digits (Dapr's Redis state store) and rules alike", () => {
    const end = at("2024-07-01");
    const model = trainRegimeModel(btc.slice(end - 4000, end), { trainedAt: btc[end]!.t, seed: 5, restarts: 2 });
    // Every number as such a store gives it back: a transition row then sums to 0.999999 or so.
    const sixDigits = JSON.parse(JSON.stringify(regimeModelToJson(model)), (_k, v: unknown) => (typeof v === "number" ? Number(v.toPrecision(6)) : v)) as unknown;
    const rows = (sixDigits as { hmm: { transmat: number[][] } }).hmm.transmat;
    // A row of equal chances, 1/6 each, comes back as 0.166667 six times: it sums to 1.000002.
    const even = rows[0]!.map(() => 1 / rows[0]!.length);
    rows[0] = even.map((x) => Number(x.toPrecision(6)));
    model.params.transMat.set(even, 0);
    expect(Math.abs(rows[0].reduce((a, b) => a + b, 0) - 1)).toBeGreaterThan(1e-6);
    const restored = regimeModelFromJson(sixDigits);
    for (let i = 0; i < restored.params.k; i++) {
      const row = Array.from(restored.params.transMat.subarray(i * restored.params.k, (i + 1) * restored.params.k));
      expect(row.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
    }
    const window = btc.slice(end - 720, end);
    const e1 = evaluateRegime(model, window, DEAD_FLOWS);
    const e2 = evaluateRegime(restored, window, DEAD_FLOWS);
    const top = (p: ReadonlyMap<string, number>) => [...p].sort((a, b) => b[1] - a[1])[0]![0];
    expect(top(e2.probabilities)).toBe(top(e1.probabilities));
    for (const [regime, p] of e1.probabilities) expect(e2.probabilities.get(regime)).toBeCloseTo(p, 3);
  }, 60_000);

  it("features of a bar do not change when later bars change (no look-ahead)", () => {
    const slice = btc.slice(0, 2000);
    const changed = slice.map((c, i) => (i < 1500 ? c : { ...c, c: c.c * 2, h: c.h * 2, v: c.v * 10 }));
    const a = buildFeatures(slice).obs.data;
    const b = buildFeatures(changed).obs.data;
    const rowsBefore = (1500 - WEEK) * 4;
    expect(Array.from(b.subarray(0, rowsBefore))).toEqual(Array.from(a.subarray(0, rowsBefore)));
    expect(b[rowsBefore]).not.toBe(a[rowsBefore]);
  });
});

describe("flat prices (zero variance everywhere)", () => {
  it("train, evaluate and report without a NaN", () => {
    const flat: Candle[] = Array.from({ length: 800 }, (_, i) => ({ t: i * 3_600_000, o: 100, h: 100, l: 100, c: 100, v: 5 }));
    const model = trainRegimeModel(flat, { trainedAt: 0, restarts: 2 });
    const e = evaluateRegime(model, flat, DEAD_FLOWS);
    const step = evaluateHysteresis(INITIAL_HYSTERESIS, e.probabilities, e.at);
    const r = regimeReport(model, e, step.state, flat, e.at);
    const numbers = [r.confidence, r.chopScore ?? 0, r.regimeAgeHours, ...Object.values(r.transitionProbabilities), ...e.statePosterior];
    expect(numbers.every(Number.isFinite)).toBe(true);
    expect(regimeModelFromJson(JSON.parse(JSON.stringify(regimeModelToJson(model)))).labels).toEqual(model.labels);
  });
});
