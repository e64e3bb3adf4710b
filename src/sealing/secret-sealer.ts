import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { z } from "zod";

/**
 * Webhook signing secrets at rest. The service must sign with the secret itself, so it cannot
 * keep only a hash (as it does for API keys); what it can do is keep the stored copies (the store
 * row and the subscription actor's state) sealed with a key that lives in the environment only.
 * Whoever reads a store dump or a backup, but not the environment, then cannot sign a forged
 * event that a subscriber would accept.
 *
 * AES-256-GCM, a fresh 96-bit nonce per seal, and the subscription id as associated data, so a
 * sealed secret copied onto another subscription's row does not open there. A sealed value is
 * `sealed.v1.<key id>.<base64url(nonce | tag | ciphertext)>`; anything else is a secret stored as
 * issued (before sealing was configured), read as it is. For personal data, which callers type,
 * "anything else" includes a value with the prefix but not that exact shape.
 */
export interface SealKey {
  readonly id: string;
  readonly key: Buffer;
}

export interface SecretSealer {
  /** The key new seals use; null when no key is configured and secrets are stored as issued. */
  readonly sealingKeyId: string | null;
  seal(secret: string, subscriptionId: string): string;
  /** Throws SecretUnsealError when the value cannot be opened (unknown key, altered, another row's). */
  unseal(stored: string, subscriptionId: string): string;
  /** The key a stored value was sealed with, or null for a secret stored as issued. */
  keyIdOf(stored: string): string | null;
}

/**
 * What a sealer seals: `context` goes into the associated data (so a value sealed for one use
 * never opens as another), `what` and `setting` into the errors an operator reads.
 */
export interface SealUsage {
  readonly context: string;
  readonly what: string;
  readonly setting: string;
  /** What the id bound to a value names, for the errors ("subscription", "subscriber"). */
  readonly owner: string;
  /**
   * Whether a value that already looks sealed is written as it is. A webhook secret is always
   * `whsec_…`, so one with the prefix is a state read back and written again; a name or an
   * address is whatever a caller typed, `sealed.v1.…` included, and is always sealed.
   */
  readonly passesSealedThrough: boolean;
}

export const WEBHOOK_SECRET_USAGE: SealUsage = {
  context: "webhook-secret",
  what: "webhook secret",
  setting: "WEBHOOK_SECRET_KEYS",
  owner: "subscription",
  passesSealedThrough: true,
};

export class SecretUnsealError extends Error {
  constructor(
    readonly reason: "unknown_key" | "not_authentic" | "malformed",
    readonly keyId: string | null,
    usage: SealUsage = WEBHOOK_SECRET_USAGE,
  ) {
    super(
      reason === "unknown_key"
        ? `${usage.what} sealed with key "${keyId ?? ""}", which ${usage.setting} does not name`
        : reason === "not_authentic"
          ? `${usage.what} sealed with key "${keyId ?? ""}" does not authenticate (altered, or another ${usage.owner}'s)`
          : `${usage.what} has the sealed prefix but not its shape`,
    );
    this.name = "SecretUnsealError";
  }
}

const PREFIX = "sealed.v1.";
const NONCE_BYTES = 12;
const TAG_BYTES = 16;
const KEY_BYTES = 32;
const KEY_ID_CHARS = "[A-Za-z0-9_-]{1,32}";
const KEY_ID = new RegExp(`^${KEY_ID_CHARS}$`);
/** Base64url (unpadded) of nonce, tag and at least one byte of ciphertext: the shortest value unseal opens. */
const MIN_PACKED_CHARS = Math.ceil(((NONCE_BYTES + TAG_BYTES + 1) * 4) / 3);
/** What `seal` writes: the prefix, a key id, and the packed nonce, tag and ciphertext. */
const SEALED_SHAPE = new RegExp(`^${PREFIX.replaceAll(".", "\\.")}${KEY_ID_CHARS}\\.[A-Za-z0-9_-]{${MIN_PACKED_CHARS},}$`);

function associatedData(usage: SealUsage, ownerId: string): Buffer {
  return Buffer.from(`${usage.context}:${ownerId}`, "utf8");
}

/**
 * Every delivery turn opens and seals a subscription's copies several times (fan-out, actor
 * state, store row) with the same secret: measured, that was a tenth of the 1,000-subscription
 * fan-out's time (bench/webhook-fanout.bench.ts). So a sealer remembers, per subscription, what
 * it opened and what it sealed: a value it authenticated once opens the same again, and a secret
 * sealed once is written with the same sealed value (the same message under the same nonce, not
 * a nonce reused for another). Bounded, oldest forgotten first; per process, and nothing another
 * replica must agree with (any sealed value of a secret opens to it everywhere).
 */
const REMEMBERED = 20_000;

class Remembered {
  private readonly entries = new Map<string, string>();

  get(key: string): string | undefined {
    return this.entries.get(key);
  }

  set(key: string, value: string): void {
    if (this.entries.size >= REMEMBERED) {
      const oldest = this.entries.keys().next();
      if (oldest.done !== true) this.entries.delete(oldest.value);
    }
    this.entries.set(key, value);
  }
}

export function createSecretSealer(keys: readonly SealKey[], usage: SealUsage = WEBHOOK_SECRET_USAGE): SecretSealer {
  const byId = new Map(keys.map((k) => [k.id, k.key]));
  const sealing = keys[0] ?? null;
  const opened = new Remembered();
  const sealed = new Remembered();

  function keyIdOf(stored: string): string | null {
    if (!stored.startsWith(PREFIX)) return null;
    // A value a caller typed before sealing was configured may start with the prefix (an address
    // `sealed.v1.k1.x@example.org` is valid). Read as sealed, it would not open: the owner read as
    // null and an erasure by that address missed it. So for such values only the exact shape a
    // seal makes counts as sealed; an address never has it ('@' is not base64url).
    if (!usage.passesSealedThrough && !SEALED_SHAPE.test(stored)) return null;
    const dot = stored.indexOf(".", PREFIX.length);
    return dot < 0 ? stored.slice(PREFIX.length) : stored.slice(PREFIX.length, dot);
  }

  return {
    sealingKeyId: sealing?.id ?? null,
    keyIdOf,
    seal(secret, subscriptionId) {
      // Already sealed (a state read back and written again unchanged): never wrapped twice.
      if (sealing === null || (usage.passesSealedThrough && secret.startsWith(PREFIX))) return secret;
      const memo = `${subscriptionId}\n${secret}`;
      const known = sealed.get(memo);
      if (known !== undefined) return known;
      const nonce = randomBytes(NONCE_BYTES);
      const cipher = createCipheriv("aes-256-gcm", sealing.key, nonce);
      cipher.setAAD(associatedData(usage, subscriptionId));
      const body = Buffer.concat([cipher.update(secret, "utf8"), cipher.final()]);
      const value = `${PREFIX}${sealing.id}.${Buffer.concat([nonce, cipher.getAuthTag(), body]).toString("base64url")}`;
      sealed.set(memo, value);
      opened.set(`${subscriptionId}\n${value}`, secret);
      return value;
    },
    unseal(stored, subscriptionId) {
      const keyId = keyIdOf(stored);
      if (keyId === null) return stored;
      const memo = `${subscriptionId}\n${stored}`;
      const known = opened.get(memo);
      if (known !== undefined) return known;
      const packed = stored.slice(PREFIX.length + keyId.length + 1);
      if (!KEY_ID.test(keyId) || stored[PREFIX.length + keyId.length] !== ".") throw new SecretUnsealError("malformed", null, usage);
      const key = byId.get(keyId);
      if (key === undefined) throw new SecretUnsealError("unknown_key", keyId, usage);
      const raw = Buffer.from(packed, "base64url");
      if (raw.length <= NONCE_BYTES + TAG_BYTES) throw new SecretUnsealError("malformed", keyId, usage);
      const decipher = createDecipheriv("aes-256-gcm", key, raw.subarray(0, NONCE_BYTES));
      decipher.setAAD(associatedData(usage, subscriptionId));
      decipher.setAuthTag(raw.subarray(NONCE_BYTES, NONCE_BYTES + TAG_BYTES));
      let secret: string;
      try {
        secret = Buffer.concat([decipher.update(raw.subarray(NONCE_BYTES + TAG_BYTES)), decipher.final()]).toString("utf8");
      } catch {
        throw new SecretUnsealError("not_authentic", keyId, usage);
      }
      opened.set(memo, secret);
      // Written back under the key that seals now only if that is the key it came under; a
      // secret under an older key is sealed anew at its next write (the key replacement).
      if (keyId === sealing?.id) sealed.set(`${subscriptionId}\n${secret}`, stored);
      return secret;
    },
  };
}

/**
 * `WEBHOOK_SECRET_KEYS` and `PERSONAL_DATA_KEYS`: `id:base64-of-32-bytes`, comma-separated. The first seals; every one
 * listed opens what it sealed, so a key is replaced by putting the new one first and keeping the
 * old one until no stored secret names it (the start-up log counts them).
 */
export const sealKeysSetting = z
  .string()
  .transform((v) => v.split(",").map((s) => s.trim()).filter((s) => s !== ""))
  .pipe(
    z
      .array(
        z
          .string()
          .transform((entry, ctx) => {
            const colon = entry.indexOf(":");
            const id = colon < 0 ? "" : entry.slice(0, colon);
            const encoded = colon < 0 ? "" : entry.slice(colon + 1);
            // Only the entry's position is named: the value is key material.
            if (!KEY_ID.test(id)) {
              ctx.addIssue({ code: "custom", message: "each entry must be id:key, the id 1-32 of A-Z a-z 0-9 _ -" });
              return z.NEVER;
            }
            const key = Buffer.from(encoded, "base64");
            if (key.length !== KEY_BYTES || key.toString("base64").replace(/=+$/, "") !== encoded.replace(/=+$/, "")) {
              ctx.addIssue({ code: "custom", message: `key "${id}" must be 32 bytes in base64 (e.g. openssl rand -base64 32)` });
              return z.NEVER;
            }
            return { id, key } satisfies SealKey;
          }),
      )
      .min(1, "must name at least one id:key")
      .refine((keys) => new Set(keys.map((k) => k.id)).size === keys.length, "key ids must differ"),
  );
