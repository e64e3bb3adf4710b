import type { ConfidenceBasis, Verdict } from "../../../sdk/types.js";
import { el, facts } from "../dom.js";
import { label, money, num, pct01, tone, when } from "../format.js";
import type { PanelDef } from "../panel.js";

export function rulingPill(code: string | null): HTMLElement {
  return el("span", { class: `pill ${tone(code)}` }, label(code));
}

/** Who wrote a council's explanation, in words; the ruling is always the code's. */
export function explainedBy(source: "model" | "template" | null): string {
  return source === "model" ? "written by the language model" : "written by the service from the votes";
}

/** How a confidence was obtained, in words: "calibrated: base rate, 24 h". */
export function basisText(b: ConfidenceBasis | null): string {
  if (b === null) return "";
  const horizon = b.horizon_hours === null ? "" : `, ${b.horizon_hours} h`;
  switch (b.kind) {
    case "isotonic":
      return `calibrated: isotonic${horizon}`;
    case "base_rate":
      return `calibrated: base rate${horizon}`;
    case "prior":
      return `prior: under a week of outcomes${horizon}`;
    case "uncalibrated":
      return "uncalibrated";
    case "abstained":
      return "abstained: no data";
  }
}

export const verdictPanel: PanelDef<Verdict> = {
  id: "verdict",
  title: "BTC verdict and council",
  access: "free",
  load: async (client) => {
    const data = await client.verdict();
    return { data, ttlSeconds: data.cache_ttl_seconds };
  },
  render: (body, v) => {
    body.append(
      el("p", { class: "headline" }, rulingPill(v.ruling), ` ${pct01(v.confidence)} confidence `, el("span", { class: "basis muted" }, `(${basisText(v.confidence_basis)})`), ` · score ${num(v.score, 1)}`),
      facts([
        ["BTC price", money(v.btc_price)],
        ["Council", v.council_ruling ? el("span", {}, rulingPill(v.council_ruling), ` ${pct01(v.council_confidence)}${v.council_confidence_basis ? ` (${basisText(v.council_confidence_basis)})` : ""} · ${v.council_consensus ?? "—"}`) : "No recent council verdict"],
        ["Mode", v.council_mode === "judiciary" ? "Judiciary fallback (no language model; reduced consensus)" : (v.council_mode ?? "—")],
        ["Macro (levels)", v.macro_context ? `${label(v.macro_context.assessment)} — driver ${v.macro_context.key_driver}` : "—"],
        ["As of", when(v.timestamp)],
      ]),
    );
    if (v.council_explanation) body.append(el("p", { class: "explanation" }, v.council_explanation, el("span", { class: "muted" }, ` (${explainedBy(v.council_explanation_source)})`)));
    if (v.macro_context?.primary_risk) body.append(el("p", { class: "muted" }, `Primary risk: ${v.macro_context.primary_risk}`));
    if (v.agents && v.agents.length > 0) {
      // class "votes": on a phone each agent's reasoning takes a full-width line under its vote.
      const table = el("table", { class: "votes" }, el("caption", {}, "Agent votes"), el("thead", {}, el("tr", {}, el("th", { scope: "col" }, "Agent"), el("th", { scope: "col" }, "Vote"), el("th", { scope: "col" }, "Confidence"), el("th", { scope: "col", title: "The agent's own figure (0–1): what the Chief Judge weighs and the veto reads; not a probability" }, "Agent's own"), el("th", { scope: "col" }, "Reasoning"))));
      const tbody = el("tbody");
      for (const a of v.agents) tbody.append(el("tr", {}, el("th", { scope: "row" }, a.name), el("td", {}, rulingPill(a.vote)), el("td", { title: basisText(a.confidence_basis) }, a.confidence_basis.kind === "abstained" ? "— (no data)" : pct01(a.confidence)), el("td", {}, num(a.raw_confidence, 2)), el("td", { class: "reasoning" }, a.reasoning ?? "—")));
      table.append(tbody);
      body.append(el("div", { class: "table-wrap" }, table));
    }
  },
};
