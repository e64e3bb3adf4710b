import { createHmac, hkdfSync } from "node:crypto";
import type { SealKey } from "./secret-sealer.js";

/**
 * A keyed blind index of an e-mail address: what a subscriber's row is found by when its address
 * is sealed (and what the per-mailbox and per-IP counters are named by). HMAC-SHA-256 under a key derived (HKDF) from a PERSONAL_DATA_KEYS entry, never the
 * entry itself, so the sealing key and the index key are not one key used twice. Without the key,
 * an index says nothing about the address and cannot be tested against a list of addresses (a
 * plain SHA-256 of an address can: the addresses worth trying are few).
 *
 * `bi1:<key id>:<base64url>`: an address always has an `@` and an index never has one, so a row
 * stored before sealing (found by its address) and a sealed one never collide.
 */
export interface BlindIndex {
  /** The index new rows are stored under (the first key's). */
  of(address: string): string;
  /** Every index an address may be stored under: the first key's, the older keys', then the address itself. */
  candidates(address: string): string[];
  /** The key an index was made with, or null for a row found by its address (stored before sealing). */
  keyIdOf(stored: string): string | null;
}

const PREFIX = "bi1:";

export function createBlindIndex(keys: readonly [SealKey, ...SealKey[]]): BlindIndex {
  const derived = keys.map((k) => ({
    id: k.id,
    key: Buffer.from(hkdfSync("sha256", k.key, Buffer.alloc(0), "market-intel personal-data blind index v1", 32)),
  }));
  const under = (k: { id: string; key: Buffer }, address: string) =>
    `${PREFIX}${k.id}:${createHmac("sha256", k.key).update(address, "utf8").digest("base64url")}`;
  const [first] = derived as [{ id: string; key: Buffer }, ...Array<{ id: string; key: Buffer }>];
  return {
    of: (address) => under(first, address),
    candidates: (address) => [...derived.map((k) => under(k, address)), address],
    keyIdOf(stored) {
      if (!stored.startsWith(PREFIX)) return null;
      const end = stored.indexOf(":", PREFIX.length);
      return end < 0 ? null : stored.slice(PREFIX.length, end);
    },
  };
}
