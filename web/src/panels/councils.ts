import type { ConfidenceBasis, CouncilSession, CouncilVerdict, SolCouncil, TaoCouncil } from "../../../sdk/types.js";
import { el, facts } from "../dom.js";
import { label, num, pct01, when } from "../format.js";
import type { PanelDef } from "../panel.js";
import { basisText, explainedBy, rulingPill } from "./verdict.js";

// DECISIONS 2: SOL and TAO council answers are cached 60 s; the TTL a body carries goes first
// (what is left of a cached answer), this only stands in for the run endpoint's envelope.
const ALT_COUNCIL_TTL_S = 60;

/**
 * A vote's confidence and the agent's own figure, as the verdict panel shows them: an abstaining
 * agent's fixed figure is no probability ("— (no data)"), and the agent's own figure is a 0–1
 * weight the Chief Judge reads, not a percentage.
 */
function voteFigures(confidence: number, basis: ConfidenceBasis, own: number): string {
  const shown = basis.kind === "abstained" ? "— (no data)" : `${pct01(confidence)} (${basisText(basis)})`;
  return `${shown}; agent's own figure ${num(own, 2)}`;
}

export const btcCouncilPanel: PanelDef<CouncilSession> = {
  id: "btc-council",
  title: "BTC council session",
  access: "pro",
  load: async (client) => {
    const data = await client.council();
    return { data, ttlSeconds: data.cache_ttl_seconds };
  },
  render: (body, c) => {
    body.append(
      el("p", { class: "headline" }, rulingPill(c.ruling), ` ${pct01(c.confidence)} (${basisText(c.confidence_basis)}) · ${c.consensus} · score ${num(c.score, 1)}`),
      facts([
        ["Session", when(c.session_at)],
        ["Agents failed", String(c.agents_failed)],
      ]),
    );
    const list = el("ul", { class: "agents" });
    for (const a of c.agents) list.append(el("li", {}, el("strong", {}, a.agent), " ", rulingPill(a.ruling), ` ${voteFigures(a.confidence, a.confidence_basis, a.raw_confidence)} — ${a.thesis}`));
    body.append(list);
  },
};

function renderCouncilVerdict(body: HTMLElement, v: CouncilVerdict | null, emptyText: string): void {
  if (!v) {
    body.append(el("p", { class: "muted" }, emptyText));
    return;
  }
  body.append(el("p", { class: "headline" }, rulingPill(v.ruling), ` ${pct01(v.confidence)} (${basisText(v.confidenceBasis)}) · ${when(v.createdAt)}`));
  if (v.plainExplanation) body.append(el("p", { class: "explanation" }, v.plainExplanation, el("span", { class: "muted" }, ` (${explainedBy(v.explanationSource)})`)));
  const list = el("ul", { class: "agents" });
  for (const [agent, vote] of Object.entries(v.agentVotes)) list.append(el("li", {}, el("strong", {}, label(agent)), " ", rulingPill(vote.ruling), ` ${voteFigures(vote.confidence, vote.confidenceBasis, vote.rawConfidence)}`));
  body.append(list);
  if (v.riskFlags && v.riskFlags.length > 0) body.append(el("p", {}, `Risk flags: ${v.riskFlags.map(label).join(", ")}`));
}

export const solCouncilPanel: PanelDef<SolCouncil> = {
  id: "sol-council",
  title: "SOL council",
  access: "pro",
  load: async (client) => {
    const data = await client.solCouncil();
    return { data, ttlSeconds: data.cache_ttl_seconds };
  },
  render: (body, s) => renderCouncilVerdict(body, s.verdict, `No SOL verdict yet; the council refreshes every ${s.nextRefreshMinutes} minutes.`),
};

export const taoCouncilPanel: PanelDef<TaoCouncil> = {
  id: "tao-council",
  title: "TAO council",
  access: "pro",
  load: async (client) => {
    const data = await client.taoCouncil();
    return { data, ttlSeconds: data.cache_ttl_seconds ?? ALT_COUNCIL_TTL_S };
  },
  render: (body, t) => renderCouncilVerdict(body, t.verdict, t.detail ?? "No TAO verdict yet."),
};
