import type { Asset } from "../../sdk/types.js";
import { el } from "./dom.js";

const ASSETS: readonly Asset[] = ["BTC", "ETH", "SOL", "TAO"];

/** The "Asset" drop-down of a panel that shows one asset at a time; `picked` runs on a change. */
export function assetPicker(id: string, current: Asset, picked: (asset: Asset) => void): HTMLElement {
  const select = el("select", { id });
  for (const a of ASSETS) select.append(el("option", { value: a, selected: a === current }, a));
  select.addEventListener("change", () => picked(select.value as Asset));
  return el("label", { class: "control" }, "Asset ", select);
}
