import type { MacroCorrelation } from "../../../sdk/types.js";
import { el, facts } from "../dom.js";
import { label, num, pct, tone, when } from "../format.js";
import type { PanelDef } from "../panel.js";

function signed(value: number | null, digits: number, suffix = ""): string {
  if (value === null || !Number.isFinite(value)) return "—";
  return `${value > 0 ? "+" : ""}${num(value, digits)}${suffix}`;
}

/** A 0..100 score as a labelled meter: the number is the text, the bar is decoration. */
function score(name: string, value: number): HTMLElement {
  const fill = el("span", { class: "bar-fill" });
  fill.style.width = `${Math.max(0, Math.min(100, value))}%`;
  return el("span", { class: "score" }, `${value} / 100`, el("span", { class: "bar inline", role: "meter", "aria-label": name, "aria-valuemin": 0, "aria-valuemax": 100, "aria-valuenow": value }, fill));
}

/** Basic: the five cross-asset series, the risk-off and Fed-hawkishness scores, and any alerts. */
export const macroCorrelationPanel: PanelDef<MacroCorrelation> = {
  id: "macro-correlation",
  title: "Macro correlation",
  access: "basic",
  load: async (client) => {
    const data = await client.macroCorrelation();
    return { data, ttlSeconds: data.cache_ttl_seconds };
  },
  render: (body, m) => {
    body.append(
      el("p", { class: "headline" }, el("span", { class: `pill ${tone(m.assessment)}` }, label(m.assessment)), ` from day-over-day moves, as of ${when(m.timestamp)}`),
      facts([
        ["Risk-off score", score("Risk-off score", m.risk_off_score)],
        ["Fed hawkishness", score("Fed hawkishness", m.fed_hawkishness)],
      ]),
    );
    if (m.alerts.length > 0) {
      const list = el("ul", { class: "alerts", "aria-label": "Macro alerts" });
      for (const a of m.alerts) list.append(el("li", {}, el("span", { class: "pill bear" }, label(a.alert)), ` ${a.message}${a.message.includes(a.key_driver) ? "" : ` (driver: ${a.key_driver})`}`));
      body.append(list);
    } else {
      body.append(el("p", { class: "muted" }, "No macro alerts."));
    }
    const table = el(
      "table",
      {},
      el("caption", {}, "Latest value, 24 h change and 30-day correlation with BTC"),
      el("thead", {}, el("tr", {}, el("th", { scope: "col" }, "Series"), el("th", { scope: "col", class: "num" }, "Value"), el("th", { scope: "col", class: "num" }, "24 h"), el("th", { scope: "col", class: "num" }, "30 d corr."), el("th", { scope: "col" }, "Status"))),
    );
    const tbody = el("tbody");
    for (const s of m.signals) {
      tbody.append(
        el(
          "tr",
          { "data-status": s.status },
          el("th", { scope: "row" }, s.display_name, s.display_name === s.key ? null : el("span", { class: "muted code" }, ` ${s.key}`)),
          el("td", { class: "num" }, num(s.value, 4)),
          el("td", { class: "num" }, s.change_24h_pct === null ? "—" : `${s.change_24h_pct > 0 ? "+" : ""}${pct(s.change_24h_pct)}`),
          el("td", { class: "num" }, signed(s.correlation_30d, 2)),
          el("td", {}, el("span", { class: `pill ${tone(s.status)}` }, s.status)),
        ),
      );
    }
    table.append(tbody);
    body.append(el("div", { class: "table-wrap" }, table));
  },
};
