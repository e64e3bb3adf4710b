import type { RegimeCurrent } from "../../../sdk/types.js";
import { el, facts } from "../dom.js";
import { label, money, num, pct01, tone, when } from "../format.js";
import type { PanelDef } from "../panel.js";

export const regimePanel: PanelDef<RegimeCurrent> = {
  id: "regime",
  title: "Market regime",
  access: "free",
  load: async (client) => {
    const data = await client.regime();
    return { data, ttlSeconds: data.cache_ttl_seconds };
  },
  render: (body, r) => {
    body.append(
      el("p", { class: "headline" }, el("span", { class: `pill ${tone(r.regime)}` }, label(r.regime)), ` ${pct01(r.confidence)} · ${r.strength ?? "—"}`),
      facts([
        ["Sub-regime", label(r.sub_regime)],
        ["Volatility", label(r.volatility_state)],
        ["Chop score", num(r.chop_score)],
        ["Breakout imminent", r.breakout_imminent === null ? "—" : r.breakout_imminent ? "yes" : "no"],
        ["Age", r.regime_age_hours === null ? "—" : `${num(r.regime_age_hours, 1)} h`],
        ["BTC at detection", money(r.btc_price)],
        ["Detected", when(r.detected_at)],
      ]),
    );
    const probs = Object.entries(r.transition_probabilities ?? {}).sort((a, b) => b[1] - a[1]);
    if (probs.length > 0) {
      const list = el("ul", { class: "bars", "aria-label": "Probability of the next regime" });
      for (const [name, p] of probs) {
        const bar = el("span", { class: "bar-fill" });
        bar.style.width = `${Math.max(0, Math.min(1, p)) * 100}%`;
        list.append(el("li", {}, el("span", { class: "bar-label" }, `${label(name)} ${pct01(p)}`), el("span", { class: "bar", "aria-hidden": "true" }, bar)));
      }
      body.append(el("h4", {}, "Transition probabilities"), list);
    }
  },
};
