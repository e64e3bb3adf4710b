import type { RegimeStats } from "../../../sdk/types.js";
import { el, facts } from "../dom.js";
import { label, money, num, over, pct, when } from "../format.js";
import type { PanelDef } from "../panel.js";

/** Free: Ghost Trader results grouped by the regime in force at entry. */
export const regimeStatsPanel: PanelDef<RegimeStats> = {
  id: "regime-stats",
  title: "Ghost Trader results by regime",
  access: "free",
  load: async (client) => {
    const data = await client.regimeStats();
    return { data, ttlSeconds: data.cache_ttl_seconds };
  },
  render: (body, s) => {
    body.append(
      facts([
        ["Closed trades", String(s.total_trades)],
        ["Overall win rate", over(s.total_trades, pct(s.overall_win_rate))],
        ["Best regime", label(s.best_regime)],
        ["Worst regime", label(s.worst_regime)],
        ["Since", when(s.since)],
      ]),
    );
    const rows = s.regimes.filter((r) => r.trades > 0);
    if (rows.length === 0) {
      body.append(el("p", { class: "muted" }, "No closed trades in this sprint yet."));
      return;
    }
    const table = el(
      "table",
      {},
      el("caption", {}, "Paper trades by the regime at entry"),
      el("thead", {}, el("tr", {}, el("th", { scope: "col" }, "Regime"), el("th", { scope: "col", class: "num" }, "Trades"), el("th", { scope: "col", class: "num" }, "Won / lost"), el("th", { scope: "col", class: "num" }, "Win rate"), el("th", { scope: "col", class: "num" }, "Avg P&L"), el("th", { scope: "col", class: "num" }, "Avg hold"), el("th", { scope: "col", class: "num" }, "Total P&L"))),
    );
    const tbody = el("tbody");
    for (const r of [...rows].sort((a, b) => b.trades - a.trades)) {
      tbody.append(
        el(
          "tr",
          {},
          el("th", { scope: "row" }, label(r.regime)),
          el("td", { class: "num" }, String(r.trades)),
          el("td", { class: "num" }, `${r.wins} / ${r.losses}`),
          el("td", { class: "num" }, pct(r.win_rate)),
          el("td", { class: "num" }, pct(r.avg_pnl_pct)),
          el("td", { class: "num" }, `${num(r.avg_hold_hours, 1)} h`),
          el("td", { class: "num" }, money(r.total_pnl_usd)),
        ),
      );
    }
    table.append(tbody);
    body.append(el("div", { class: "table-wrap" }, table));
  },
};
