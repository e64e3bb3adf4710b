import { createHash } from "node:crypto";

/**
 * Trade ids are UUID-shaped and derived from what makes an entry unique (asset, origin, entry
 * time), not random: replaying the same bars yields the same ids, and a retried actor turn that
 * re-decides an entry after a crash produces the same id, which the store de-duplicates.
 */
export function tradeId(asset: string, origin: string, entryTime: number): string {
  const h = createHash("sha256").update(`ghost-trade|${asset}|${origin}|${entryTime}`).digest("hex");
  // Version nibble 5 and RFC 4122 variant bits, so validators that check the layout accept it.
  const variant = ((parseInt(h.slice(16, 17), 16) & 0x3) | 0x8).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}
