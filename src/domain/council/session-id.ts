import { createHash } from "node:crypto";
import type { CouncilAsset } from "./council-types.js";

/**
 * Session id: a name-based UUID (version 5 layout) of asset and session time. SPEC types the TAO
 * and SOL verdict ids as UUIDs; deriving it makes a retried turn write the same session again,
 * and lets the engine backtest name its sessions as the CouncilActor does.
 */
export function councilSessionId(asset: CouncilAsset, at: number): string {
  const h = createHash("sha1").update(`council:${asset}:${at}`).digest();
  h[6] = ((h[6] ?? 0) & 0x0f) | 0x50;
  h[8] = ((h[8] ?? 0) & 0x3f) | 0x80;
  const x = h.subarray(0, 16).toString("hex");
  return `${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20, 32)}`;
}
