import type { Regime, SignalWeights } from "../../../sdk/types.js";
import { el, facts } from "../dom.js";
import { label, over, pct01, when } from "../format.js";
import type { PanelDef } from "../panel.js";

const REGIMES: readonly Regime[] = ["BULL_TRENDING", "BEAR_TRENDING", "HIGH_VOLATILITY", "DISTRIBUTION", "WHALE_ACCUMULATION", "RISK_ON", "LOW_VOLATILITY", "ACCUMULATION"];
// Multipliers run 0.3..2 around a neutral 1; the bar shows that range so 1.0 sits at the same place in every row.
const MULTIPLIER_MIN = 0.3;
const MULTIPLIER_MAX = 2;

/** Pro: adaptive per-signal multipliers; one regime at a time keeps the table readable (27 rows, not 216). */
export function signalWeightsPanel(): PanelDef<SignalWeights> {
  let regime: Regime | "ALL" = "ALL";
  return {
    id: "signal-weights",
    title: "Signal weights",
    access: "pro",
    controls: (reload) => {
      const select = el("select", { id: "weights-regime" });
      select.append(el("option", { value: "ALL", selected: regime === "ALL" }, "All regimes"));
      for (const r of REGIMES) select.append(el("option", { value: r, selected: r === regime }, label(r)));
      select.addEventListener("change", () => {
        regime = select.value as Regime | "ALL";
        reload();
      });
      return el("label", { class: "control" }, "Regime ", select);
    },
    load: async (client) => {
      const data = await client.signalWeights({ regime });
      return { data, ttlSeconds: data.cache_ttl_seconds };
    },
    render: (body, w) => {
      body.append(
        facts([
          ["Regime", w.regime === "ALL" ? "All regimes" : label(w.regime)],
          ["Average accuracy", over(w.weights.length, pct01(w.avg_accuracy))],
          ["Grading window", `${w.window_size} calls`],
          ["Updated", when(w.last_updated)],
        ]),
      );
      if (w.weights.length === 0) {
        body.append(el("p", { class: "muted" }, "No graded calls yet: every signal still carries the neutral weight 1.0."));
        return;
      }
      const rows = [...w.weights].sort((a, b) => b.multiplier - a.multiplier);
      // With one regime selected its column would repeat the same word on every row.
      const showRegime = w.regime === "ALL";
      const table = el(
        "table",
        { class: "weights" },
        el("caption", {}, "Multiplier per signal: 1.00 neutral, 0.30 to 2.00, from its accuracy over the grading window"),
        el("thead", {}, el("tr", {}, el("th", { scope: "col" }, "Signal"), showRegime ? el("th", { scope: "col" }, "Regime") : null, el("th", { scope: "col", class: "num" }, "Multiplier"), el("th", { scope: "col", class: "num" }, "Accuracy"), el("th", { scope: "col", class: "num" }, "Calls"))),
      );
      const tbody = el("tbody");
      for (const item of rows) {
        const fill = el("span", { class: "bar-fill" });
        fill.style.width = `${((Math.min(MULTIPLIER_MAX, Math.max(MULTIPLIER_MIN, item.multiplier)) - MULTIPLIER_MIN) / (MULTIPLIER_MAX - MULTIPLIER_MIN)) * 100}%`;
        tbody.append(
          el(
            "tr",
            {},
            el("th", { scope: "row", class: "code" }, item.signal_key),
            showRegime ? el("td", { class: "regime" }, label(item.regime)) : null,
            el("td", { class: "num" }, item.multiplier.toFixed(2), el("span", { class: "bar inline", "aria-hidden": "true" }, fill)),
            el("td", { class: "num" }, pct01(item.accuracy)),
            el("td", { class: "num" }, String(item.data_points)),
          ),
        );
      }
      table.append(tbody);
      body.append(el("div", { class: "table-wrap scroll" }, table));
    },
  };
}
