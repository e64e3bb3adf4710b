import type { Asset, GhostPerformance, PerformanceGroupRow } from "../../../sdk/types.js";
import { assetPicker } from "../asset-picker.js";
import { el, facts } from "../dom.js";
import { money, num, over, pct, when } from "../format.js";
import type { PanelDef } from "../panel.js";


const band = (b: { mean: number; p5: number; p95: number } | null, digits = 2): string =>
  b === null ? "n/a" : `${num(b.mean, digits)} (90 %: ${num(b.p5, digits)} to ${num(b.p95, digits)})`;

function groupTable(caption: string, rows: readonly PerformanceGroupRow[]): HTMLElement {
  const table = el(
    "table",
    {},
    el("caption", {}, caption),
    el("thead", {}, el("tr", {}, el("th", { scope: "col" }, "Group"), el("th", { scope: "col", class: "num" }, "Trades"), el("th", { scope: "col", class: "num" }, "Win rate"), el("th", { scope: "col", class: "num" }, "P&L"))),
  );
  const tbody = el("tbody");
  for (const r of rows) {
    tbody.append(el("tr", {}, el("th", { scope: "row", class: "code" }, r.key), el("td", { class: "num" }, String(r.trades)), el("td", { class: "num" }, pct(r.winRatePct)), el("td", { class: "num" }, money(r.pnlUsd))));
  }
  table.append(tbody);
  return el("div", { class: "table-wrap" }, table);
}

type RandomEntry = NonNullable<GhostPerformance["benchmarks"]["randomEntry"]>;

/**
 * Random entry's figure: the band over draws matched to the trader's trade count, or, when the
 * trader made no trades (nothing to match), entering at every bar with the same exits: the
 * no-skill baseline that says why standing aside is right. It read "n/a" there before.
 */
function randomFigure(re: RandomEntry | null, matched: (m: NonNullable<RandomEntry["matched"]>) => string, every: (e: RandomEntry["everyEntry"]) => string): string {
  if (re === null) return "n/a";
  return re.matched !== null ? matched(re.matched) : every(re.everyEntry);
}

/** Public: one Ghost Trader's current sprint against buy & hold and random entry with its exits. */
export function ghostPerformancePanel(): PanelDef<GhostPerformance> {
  let asset: Asset = "BTC";
  return {
    id: "ghost-performance",
    title: "Ghost Trader performance and benchmarks",
    access: "public",
    controls: (reload) =>
      assetPicker("performance-asset", asset, (picked) => {
        asset = picked;
        reload();
      }),
    load: async (client) => {
      const data = await client.ghostPerformance(asset);
      return { data, ttlSeconds: data.cache_ttl_seconds };
    },
    render: (body, p) => {
      if (p.note !== null) body.append(el("p", { class: "muted" }, p.note));
      const bh = p.benchmarks.buyAndHold;
      const re = p.benchmarks.randomEntry;
      body.append(
        facts([
          ["Sprint since", when(p.sprintSince)],
          ["Trades (win rate)", p.trades === 0 ? "0" : `${p.trades} (${pct(p.winRatePct)})`],
          ["Profit factor", num(p.profitFactor)],
          ["Expectancy", over(p.trades, `${money(p.expectancyUsd)} a trade (${num(p.expectancyPct)} %)`)],
          ["P&L (fees)", `${money(p.totalPnlUsd)} (${money(p.feesUsd)})`],
          ["Max drawdown", `${num(p.maxRelativeDrawdown.pct)} % (${money(p.maxRelativeDrawdown.usd)}, ${num(p.maxRelativeDrawdown.hours, 0)} h)`],
          ["Max drawdown in USD", `${money(p.maxDrawdown.usd)} (${num(p.maxDrawdown.pct)} %, ${num(p.maxDrawdown.hours, 0)} h)`],
          ["Sharpe / Sortino", `${num(p.sharpe)} / ${num(p.sortino)}`],
          ["Calmar", num(p.calmar)],
          ["Time in market", `${num(p.exposurePct)} %`],
          ["Buy & hold", bh === null ? "n/a" : `${num(bh.returnPct)} %; ${num(bh.scaledReturnPct)} % at the trader's exposure`],
          ["Random entry wins", re === null ? "n/a" : `${num(re.everyEntry.winRatePct)} % of ${re.everyEntry.entries} entries (same exits)`],
          ["Random PF", randomFigure(re, (m) => band(m.profitFactor), (e) => `${num(e.profitFactor)} over every entry`)],
          ["Random expectancy", randomFigure(re, (m) => `${band(m.expectancyPct)} % a trade`, (e) => `${num(e.expectancyPct)} % a trade over every entry`)],
        ]),
      );
      if (re?.note != null) body.append(el("p", { class: "muted" }, re.note));
      if (p.benchmarks.note !== null) body.append(el("p", { class: "muted" }, p.benchmarks.note));
      if (p.trades > 0) {
        body.append(groupTable("P&L by entry mode", p.byEntryMode), groupTable("P&L by exit reason", p.byExitReason), groupTable("P&L by year", p.byYear));
      }
    },
  };
}
