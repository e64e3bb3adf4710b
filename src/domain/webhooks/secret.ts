export const SECRET_PREFIX = "whsec_";

/** 24 bytes encode to exactly 32 base64 characters without padding (DECISIONS 5). */
const SECRET_BYTES = 24;
const SECRET_PATTERN = /^whsec_[A-Za-z0-9+/]{32}$/;

export type RandomBytes = (size: number) => Uint8Array;

/**
 * A new subscription secret: `whsec_` + base64 of 24 bytes from `random` (the caller passes
 * node:crypto's CSPRNG; the domain draws no randomness of its own).
 */
export function generateSecret(random: RandomBytes): string {
  return SECRET_PREFIX + Buffer.from(random(SECRET_BYTES)).toString("base64");
}

export function isWellFormedSecret(secret: string): boolean {
  return SECRET_PATTERN.test(secret);
}

/**
 * The HMAC key of the Standard Webhooks signature: the base64-decoded part after `whsec_`.
 * (`X-SERVICE-Signature` instead keys with the whole secret string, as SPEC.md says.)
 */
export function standardSigningKey(secret: string): Buffer {
  const encoded = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret;
  return Buffer.from(encoded, "base64");
}
