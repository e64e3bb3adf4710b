import type { AgentPerformance } from "../../../sdk/types.js";
import { el } from "../dom.js";
import { pct, when } from "../format.js";
import type { PanelDef } from "../panel.js";

/** Free: how often each BTC council agent's vote matched the outcome of closed Ghost trades. */
export const agentPerformancePanel: PanelDef<AgentPerformance> = {
  id: "agent-performance",
  title: "BTC council agent accuracy",
  access: "free",
  load: async (client) => {
    const data = await client.agentPerformance();
    return { data, ttlSeconds: data.cache_ttl_seconds };
  },
  render: (body, p) => {
    body.append(el("p", {}, `Graded against ${p.trades_analyzed} closed ${p.asset} Ghost ${p.trades_analyzed === 1 ? "trade" : "trades"} opened by a council verdict.`));
    if (p.agents.length === 0) {
      body.append(el("p", { class: "muted" }, "No graded agent votes yet."));
      return;
    }
    const list = el("ul", { class: "bars", "aria-label": "Share of each agent's calls that were right" });
    for (const a of [...p.agents].sort((x, y) => y.accuracy_pct - x.accuracy_pct)) {
      const fill = el("span", { class: "bar-fill" });
      fill.style.width = `${Math.max(0, Math.min(100, a.accuracy_pct))}%`;
      list.append(
        el(
          "li",
          { title: a.last_updated ? `Last graded ${when(a.last_updated)}` : undefined },
          el("span", { class: "bar-label" }, `${a.agent_name}: ${pct(a.accuracy_pct)} (${a.correct_calls} of ${a.total_calls})`),
          el("span", { class: "bar", "aria-hidden": "true" }, fill),
        ),
      );
    }
    body.append(list);
  },
};
