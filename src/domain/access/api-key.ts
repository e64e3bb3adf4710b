import { createHash } from "node:crypto";
import { TIERS, type Tier } from "./tiers.js";

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const KEY_PATTERN = /^svc_(free|basic|pro)_[A-Za-z0-9]{20}$/;

/** A uniform integer in [0, max): the caller passes node:crypto's CSPRNG `randomInt`. */
export type RandomInt = (max: number) => number;

/** `svc_{tier}_{20 chars of [A-Za-z0-9]}` drawn with `random`, the CSPRNG (DECISIONS 3). */
export function generateApiKey(tier: Tier, random: RandomInt): string {
  let body = "";
  for (let i = 0; i < 20; i++) body += ALPHABET[random(ALPHABET.length)];
  return `svc_${tier}_${body}`;
}

/** The tier a well-formed key claims, or null for anything that is not a key. */
export function parseApiKey(key: string): { tier: Tier } | null {
  const m = KEY_PATTERN.exec(key);
  if (!m) return null;
  const tier = m[1] as Tier;
  return TIERS.includes(tier) ? { tier } : null;
}

/** Only this hash is stored; the key itself can never be shown again. */
export function hashApiKey(key: string): string {
  return createHash("sha256").update(key, "utf8").digest("hex");
}

/** A short, non-secret label for lists and logs: tier prefix plus the first 4 random chars. */
export function keyPrefix(key: string): string {
  const parsed = parseApiKey(key);
  if (!parsed) return "svc_?";
  return key.slice(0, `svc_${parsed.tier}_`.length + 4);
}

