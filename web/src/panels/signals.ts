import type { SignalsSnapshot } from "../../../sdk/types.js";
import { el, facts } from "../dom.js";
import { label, num, pct, tone, when } from "../format.js";
import type { Loaded, PanelDef } from "../panel.js";
import type { MarketIntelClient } from "../../../sdk/client.js";
import { signalTrends } from "../signal-trends.js";
import { sparkline } from "../sparkline.js";

// The signals table and the macro calendar read one endpoint; requests started within this
// window with the same key share one call, so two panels cost one unit of quota.
const SHARE_WINDOW_MS = 5_000;
let shared: { key: string | null; at: number; promise: Promise<Loaded<SignalsView>> } | null = null;

/** The snapshot, plus sparkline trends for Pro keys (signal history is a Pro endpoint). */
interface SignalsView extends SignalsSnapshot {
  readonly trends: Map<string, Promise<number[] | null>> | null;
}

function loadSignals(client: MarketIntelClient): Promise<Loaded<SignalsView>> {
  const now = Date.now();
  if (shared && shared.key === client.apiKey && now - shared.at < SHARE_WINDOW_MS) return shared.promise;
  const isPro = /^svc_pro_/.test(client.apiKey ?? "");
  const promise = client.signals().then((snapshot) => {
    const withHistory = snapshot.signals.filter((s) => s.status !== "DEAD").map((s) => s.key);
    const trends = isPro ? signalTrends(client, withHistory) : null;
    return { data: { ...snapshot, trends }, ttlSeconds: snapshot.cache_ttl_seconds };
  });
  shared = { key: client.apiKey, at: now, promise };
  return promise;
}

function trendCell(view: SignalsView, key: string, name: string): HTMLTableCellElement {
  const cell = el("td", { class: "trend" });
  const trend = view.trends?.get(key);
  if (!view.trends) cell.append(el("span", { class: "muted" }, "Pro"));
  else if (!trend) cell.append("—");
  else {
    cell.append("…");
    void trend.then((values) => cell.replaceChildren(sparkline(values ?? [], name) ?? "—"));
  }
  return cell;
}

export const signalsPanel: PanelDef<SignalsView> = {
  id: "signals",
  title: "Signals",
  access: "basic",
  load: loadSignals,
  render: (body, s) => {
    body.append(
      el("p", {}, `${s.live_count} live · ${s.stale_count} stale · ${s.dead_count} dead of ${s.total_signals} — coverage ${pct(s.coverage_pct)} (as of ${when(s.timestamp)})`),
    );
    const table = el(
      "table",
      { class: "signals" },
      el("caption", {}, "Latest reading of each signal. DEAD: no source in this mode, or no reading for over a day past due (its last value, greyed, is for reference only). Trends (last 48 readings) need a Pro key."),
      el("thead", {}, el("tr", {}, el("th", { scope: "col" }, "Signal"), el("th", { scope: "col" }, "Category"), el("th", { scope: "col", class: "num" }, "Value"), el("th", { scope: "col" }, "Status"), el("th", { scope: "col" }, "Trend"), el("th", { scope: "col" }, "Updated"))),
    );
    const tbody = el("tbody");
    for (const sig of s.signals) {
      tbody.append(
        el(
          "tr",
          { "data-status": sig.status },
          el("th", { scope: "row" }, sig.display_name, el("span", { class: "muted code" }, ` ${sig.key}`)),
          el("td", {}, sig.category ?? "—"),
          el("td", { class: "num" }, num(sig.value, 4)),
          el("td", {}, el("span", { class: `pill ${tone(sig.status)}` }, sig.status)),
          trendCell(s, sig.key, sig.display_name),
          el("td", {}, when(sig.last_updated)),
        ),
      );
    }
    table.append(tbody);
    body.append(el("div", { class: "table-wrap" }, table));
  },
};

export const macroCalendarPanel: PanelDef<SignalsView> = {
  id: "macro-calendar",
  title: "Macro calendar",
  access: "basic",
  load: loadSignals,
  render: (body, s) => {
    const m = s.macro_calendar;
    const statusTone = m.status === "CLEAR" ? "bull" : m.status === "BLACKOUT" || m.status === "WARNING" ? "bear" : "neutral";
    body.append(
      el("p", { class: "headline" }, el("span", { class: `pill ${statusTone}` }, m.status), m.is_active ? " — a high-impact event is happening now" : ""),
      facts([
        ["Event", m.event_name ?? "None scheduled"],
        ["Tier", label(m.tier)],
        ["Hours until", m.is_active ? "now" : num(m.hours_until, 1)],
      ]),
    );
    if (m.status === "BLACKOUT") body.append(el("p", { class: "muted" }, "BLACKOUT: a TIER1 event today pauses every council."));
    if (m.complete_until !== null && Date.parse(s.timestamp) > Date.parse(m.complete_until)) {
      body.append(el("p", { class: "muted" }, `The calendar lists every CPI and payrolls release only up to ${m.complete_until.slice(0, 10)}: a status of CLEAR does not rule out one of them.`));
    }
  },
};
