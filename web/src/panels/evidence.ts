import type { Asset, RankIc, RegimeEvaluation, ReliabilityBin, VerdictEvaluation, VerdictEvaluationSpan } from "../../../sdk/types.js";
import { assetPicker } from "../asset-picker.js";
import { el, facts } from "../dom.js";
import { label, num, pct01, when } from "../format.js";
import type { PanelDef } from "../panel.js";

/** Rules were chosen on data up to 2022-12-31; the evaluation that matters is the span after. */
const HELD_OUT = "from_2023";
const EXCESS_HOURS = 24;

export interface Evidence {
  readonly verdicts: VerdictEvaluation;
  readonly regime: RegimeEvaluation;
}

const SPAN_NAMES: Record<string, string> = { from_2023: "held out (2023 on)", to_2022: "in-sample (to 2022)", trailing_365d: "trailing 365 days (live)" };

function table(caption: string, headers: readonly string[], rows: readonly (readonly (string | HTMLElement)[])[]): HTMLElement {
  // Every column after the first holds figures, right-aligned, and so is its heading.
  const thead = el("thead", {}, el("tr", {}, ...headers.map((h, i) => el("th", i === 0 ? { scope: "col" } : { scope: "col", class: "num" }, h))));
  const tbody = el("tbody");
  for (const [first, ...rest] of rows) tbody.append(el("tr", {}, el("th", { scope: "row" }, first ?? "—"), ...rest.map((c) => el("td", { class: "num" }, c))));
  return el("div", { class: "table-wrap" }, el("table", {}, el("caption", {}, caption), thead, tbody));
}

const signed = (x: number | null, digits = 2): string => (x === null ? "—" : `${x > 0 ? "+" : ""}${num(x, digits)}`);

function brierVerdict(brier: number | null, base: number | null): string {
  if (brier === null || base === null) return "—";
  const than = brier <= base ? "no worse than" : "worse than";
  return `${num(brier, 4)} vs ${num(base, 4)} for the base rate (${than} it)`;
}

function calibrationGap(gap: number | null, band: { median: number; p95: number } | null): string {
  if (gap === null) return "—";
  if (band === null) return pct01(gap);
  const inside = gap <= band.p95 ? "within" : "beyond";
  return `${pct01(gap)} (a calibrated forecaster: ${pct01(band.median)}, 95% up to ${pct01(band.p95)}; ${inside} it)`;
}

function reliabilityTable(r: VerdictEvaluationSpan["reliability"]): HTMLElement {
  const row = (b: ReliabilityBin): string[] => [`${pct01(b.from)} – ${pct01(b.to)}`, String(b.count), pct01(b.mean_confidence), pct01(b.hit_rate)];
  return table(`Reliability: confidence quintiles → realised hit rate at ${r.horizon_hours} h`, ["Confidence", "Calls", "Mean confidence", "Hit rate"], r.quintiles.map(row));
}

function icTable(ics: readonly RankIc[]): HTMLElement {
  return table("Rank IC of the score with the forward return (non-overlapping samples)", ["Horizon", "IC", "t", "Samples"], ics.map((x) => [`${x.hours} h`, signed(x.ic, 3), num(x.t), String(x.samples)]));
}

function excessTable(s: VerdictEvaluationSpan): HTMLElement {
  const rows = s.rulings
    .filter((r) => r.count > 0)
    .map((r) => {
      const h = r.horizons.find((x) => x.hours === EXCESS_HOURS);
      const ci = h?.excess_ci90 ?? null;
      return [label(r.ruling), String(r.count), signed(h?.excess_pct ?? null), ci === null ? "—" : `${signed(ci[0])} to ${signed(ci[1])}`];
    });
  return table(`Per ruling: ${EXCESS_HOURS} h return above the unconditional mean (percentage points)`, ["Ruling", "Hours ruled", "Excess", "90% interval"], rows);
}

function regimeBlock(g: RegimeEvaluation): HTMLElement[] {
  const kw = g.returns_kruskal_wallis;
  return [
    el("h4", {}, "Does the regime know anything? (BTC)"),
    el("p", { class: "muted" }, "R²: the share of the next 24 h's realised volatility explained by the trailing 24 h volatility, alone and with the regime. Added by chance: what regime levels add when the same regime sequence is shifted against the hours, so it carries no information. KW p: Kruskal-Wallis test that forward 24 h returns differ by regime."),
    facts([
      ["R², trailing vol", num(g.r2_trailing_vol, 3)],
      ["R², + regime", `${num(g.r2_trailing_vol_plus_regime, 3)} (regime adds ${signed(g.r2_added_by_regime, 3)})`],
      ["Added by chance", g.r2_added_by_chance === null ? "—" : `${num(g.r2_added_by_chance.median, 3)}, 95% up to ${num(g.r2_added_by_chance.p95, 3)} (p ${num(g.r2_added_by_chance.p_value, 3)})`],
      ["Returns, KW p", `${num(kw.p_value, 3)} over ${kw.samples} samples`],
      ["Span", `${when(g.from)} – ${when(g.to)}`],
    ]),
    table(
      "Next 24 h by regime",
      ["Regime", "Hours (graded)", "Forward vol (annualised)", "Mean return", "Up share"],
      g.regimes.filter((r) => r.hours > 0).map((r) => [label(r.regime), r.graded_hours === r.hours ? String(r.hours) : `${r.hours} (${r.graded_hours})`, r.mean_forward_vol_pct === null ? "—" : `${num(r.mean_forward_vol_pct, 1)}%`, r.mean_forward_return_pct === null ? "—" : `${signed(r.mean_forward_return_pct, 3)}%`, pct01(r.up_share)]),
    ),
  ];
}

/** Basic: the walk-forward evaluation of the verdicts and the regime, from the evaluation endpoints. */
export function evidencePanel(): PanelDef<Evidence> {
  let asset: Asset = "BTC";
  return {
    id: "evidence",
    title: "Evidence: does the verdict know anything?",
    access: "basic",
    controls: (reload) =>
      assetPicker("evidence-asset", asset, (picked) => {
        asset = picked;
        reload();
      }),
    load: async (client) => {
      const [verdicts, regime] = await Promise.all([client.verdictEvaluation(asset), client.regimeEvaluation()]);
      return { data: { verdicts, regime }, ttlSeconds: Math.min(verdicts.cache_ttl_seconds, regime.cache_ttl_seconds) };
    },
    render: (body, { verdicts: v, regime }) => {
      const span = v.spans.find((s) => s.span === HELD_OUT) ?? v.spans.at(-1);
      const c = v.calibration;
      if (!span) {
        body.append(el("p", { class: "muted" }, "No graded hours yet."));
      } else {
        const r = span.reliability;
        body.append(
          facts([
            ["Span", `${SPAN_NAMES[span.span] ?? span.span}: ${when(span.from)} – ${when(span.to)}`],
            [`Calls graded (${r.horizon_hours} h)`, `${r.calls} (hit rate ${pct01(r.hit_rate)})`],
            ["Brier score", brierVerdict(r.brier, r.brier_base_rate)],
            ["Calibration gap", calibrationGap(r.quintile_mean_abs_gap, r.quintile_gap_if_calibrated)],
            ["Calibration map", `${label(c.kind)}, ${c.horizon_hours} h, ${c.outcomes} outcomes, fitted ${when(c.fitted_at)}`],
          ]),
          el(
            "p",
            { class: "muted" },
            "Calibration gap: mean distance between confidence and realised hit rate over the quintiles below. Even a perfectly calibrated forecaster shows a gap on a finite span; the band is what one would show on these very calls.",
          ),
          reliabilityTable(r),
          icTable(span.rank_ic),
          excessTable(span),
        );
      }
      body.append(...regimeBlock(regime));
    },
  };
}
