import type { NewsletterRepository, Subscriber } from "../store/ports/newsletter.js";
import type { SealUsage, SecretSealer } from "./secret-sealer.js";
import type { BlindIndex } from "./blind-index.js";

/**
 * A subscriber's address and name at rest (PERSONAL_DATA_KEYS). The newsletter endpoint takes
 * them from anyone, with no account behind them; a store dump or a backup should not be a
 * mailing list. Bound to the row's key (its blind index), so a sealed address copied onto another
 * row does not open there.
 */
export const SUBSCRIBER_DATA_USAGE: SealUsage = {
  context: "newsletter-subscriber",
  what: "subscriber's personal data",
  setting: "PERSONAL_DATA_KEYS",
  owner: "subscriber",
  passesSealedThrough: false,
};

/** Told of each subscriber whose personal data could not be opened (its key, never its address). */
export type SubscriberUnsealFailure = (key: string, err: unknown) => void;

/** A row as the application sees it: address and name opened. Rows stored before sealing are read as they are. */
export function openSubscriber(s: Subscriber, sealer: SecretSealer, index: BlindIndex): Subscriber {
  if (index.keyIdOf(s.key) === null) return s;
  return { ...s, email: sealer.unseal(s.email, s.key), name: s.name === null ? null : sealer.unseal(s.name, s.key) };
}

/**
 * The newsletter repository with personal data sealed, on either store: each row is stored under
 * the blind index of its address, with the address and name sealed; every read opens them. A row
 * is looked for under every index the listed keys give and under the address itself, so rows
 * stored before sealing, or under a key being replaced, are still found (the start's pass,
 * src/sealing/reseal-subscribers.ts, moves them under the first key). A listed row that does not
 * open is left out (the operator is told): it must not stop every other welcome.
 */
export function sealedNewsletter(
  inner: NewsletterRepository,
  sealer: SecretSealer,
  index: BlindIndex,
  onFailure: SubscriberUnsealFailure,
): NewsletterRepository {
  const openOne = (s: Subscriber): Subscriber => {
    try {
      return openSubscriber(s, sealer, index);
    } catch (err) {
      onFailure(s.key, err);
      throw err;
    }
  };
  const openList = (list: Subscriber[]): Subscriber[] =>
    list.flatMap((s) => {
      try {
        return [openSubscriber(s, sealer, index)];
      } catch (err) {
        onFailure(s.key, err);
        return [];
      }
    });
  /** The row an address is stored under, if any; the first key's index for a new one. */
  const found = async (email: string): Promise<Subscriber | null> => {
    for (const candidate of index.candidates(email)) {
      const s = await inner.get(candidate);
      if (s !== null) return s;
    }
    return null;
  };
  // Welcome bookkeeping is a handful of calls per sign-up: finding the row first costs a few
  // reads, and keeps a row not yet moved under the first key (written by a replica still without
  // the key during a rolling restart) working until the next start moves it.
  const keyOf = async (email: string): Promise<string> => (await found(email))?.key ?? index.of(email);

  return {
    async subscribe(email, name, at) {
      if ((await found(email)) !== null) return false;
      const key = index.of(email);
      return inner.subscribe(key, name === null ? null : sealer.seal(name, key), at, sealer.seal(email, key));
    },
    recordWelcomeAttempt: async (email, sentAt, giveUpAt) => inner.recordWelcomeAttempt(await keyOf(email), sentAt, giveUpAt),
    claimWelcome: async (email, claimant, now, leaseMs, maxAttempts) => inner.claimWelcome(await keyOf(email), claimant, now, leaseMs, maxAttempts),
    releaseWelcome: async (email, claimant) => inner.releaseWelcome(await keyOf(email), claimant),
    pendingWelcome: async (maxAttempts, page) => openList(await inner.pendingWelcome(maxAttempts, page)),
    listAll: async () => openList(await inner.listAll()),
    get: async (email) => {
      const s = await found(email);
      return s === null ? null : openOne(s);
    },
    async remove(email) {
      // Every copy goes: an erasure request leaves nothing under an older key either.
      let removed = false;
      for (const candidate of index.candidates(email)) removed = (await inner.remove(candidate)) || removed;
      return removed;
    },
    unsubscribeToken: async (email, fresh) => inner.unsubscribeToken(await keyOf(email), fresh),
    removeByUnsubscribeHash: (hash) => inner.removeByUnsubscribeHash(hash),
    rekey: (from, to, address, name) => inner.rekey(from, to, address, name),
  };
}
