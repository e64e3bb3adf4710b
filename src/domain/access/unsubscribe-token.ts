import { createHash } from "node:crypto";

/** 32 random bytes, base64url without padding: what an unsubscribe link carries. */
export const UNSUBSCRIBE_TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** A fresh token (from the CSPRNG's bytes the caller passes) with the hash the store looks it up by. */
export function mintUnsubscribeToken(randomBytes: (size: number) => Buffer): { token: string; hash: string } {
  const token = randomBytes(32).toString("base64url");
  return { token, hash: hashUnsubscribeToken(token) };
}

/**
 * The store finds a subscriber by this hash, never by the token: a lookup then compares digests
 * of the caller's input, so its timing says nothing about the tokens stored (as API keys, DECISIONS 3).
 */
export function hashUnsubscribeToken(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}
