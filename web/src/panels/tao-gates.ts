import type { TaoGates, TaoStatus } from "../../../sdk/types.js";
import { el, facts } from "../dom.js";
import { label, money, num, tone, when } from "../format.js";
import type { PanelDef } from "../panel.js";

// DECISIONS 2: TAO status is cached 30 s (what a cached body says is left goes first).
const TAO_STATUS_TTL_S = 30;

const GATES: readonly (readonly [keyof TaoGates, string])[] = [
  ["liquidity", "Liquidity (volume; depth not in replay)"],
  ["judiciary", "Judiciary bullish"],
  ["council", "Council ≥ 72%"],
  ["emaProximity", "Price +0.3–3.5% above EMA 200"],
  ["regime", "Favourable regime"],
  ["quality", "Quality ≥ 65"],
  ["momentum", "RSI(1H) ≥ 45"],
  ["session", "Outside the weekend block"],
];

export const taoGatesPanel: PanelDef<TaoStatus> = {
  id: "tao-gates",
  title: "TAO gate board",
  access: "public",
  load: async (client) => {
    const data = await client.taoStatus();
    return { data, ttlSeconds: data.cache_ttl_seconds ?? TAO_STATUS_TTL_S };
  },
  render: (body, s) => {
    body.append(
      facts([
        ["Status", el("span", { class: `pill ${s.status === "IN_TRADE" ? "bull" : "neutral"}` }, label(s.status))],
        ["TAO price", money(s.taoPrice)],
        ["RSI 1H / EMA 200", `${num(s.rsi1h, 1)} / ${money(s.ema200)}`],
        ["Liquidity", s.liquidityStatus],
        ["Paper trades validated", `${s.paperTradesValidated} of 10`],
        ["Updated", when(s.generatedAt)],
      ]),
    );
    const list = el("ul", { class: "gates", "aria-label": `${s.gates.gatesMet} of 8 gates passing` });
    for (const [key, text] of GATES) {
      const passed = s.gates[key] === true;
      list.append(el("li", { class: `gate ${tone(String(passed))}` }, el("span", { class: "gate-mark", "aria-hidden": "true" }, passed ? "✔" : "✖"), `${text}: ${passed ? "pass" : "fail"}`));
    }
    body.append(el("p", {}, el("strong", {}, `${s.gates.gatesMet} / 8 gates`), s.gates.trigger ? ` — next blocker: ${s.gates.trigger}` : " — all gates pass"), list);
  },
};
