import type { NewsletterRepository, Subscriber } from "../store/ports/newsletter.js";
import type { SecretSealer } from "./secret-sealer.js";
import type { BlindIndex } from "./blind-index.js";
import { openSubscriber, type SubscriberUnsealFailure } from "./sealed-newsletter.js";

export interface ResealReport {
  readonly subscribers: number;
  /** Subscribers per key their row was under before the pass ("none": stored as given). */
  readonly sealedWith: Record<string, number>;
  readonly sealedAgain: number;
  /** Rows that did not open (their key is no longer listed, or they were altered): left as they are. */
  readonly unreadable: number;
}

/**
 * Moves every subscriber not stored under the first key (stored as given before sealing, or
 * under a key being replaced) under it: index and seals made anew, welcome state kept. Run at
 * each start before the welcome sweep, so a key is replaced by one restart with `new,old`, after
 * which `old` holds nothing and can go. `inner` is the store's own repository (rows as stored).
 */
export async function resealSubscribers(
  inner: NewsletterRepository,
  sealer: SecretSealer,
  index: BlindIndex,
  onFailure: SubscriberUnsealFailure,
): Promise<ResealReport> {
  const first = sealer.sealingKeyId;
  const sealedWith: Record<string, number> = {};
  let sealedAgain = 0;
  let unreadable = 0;
  const rows = await inner.listAll();
  for (const row of rows) {
    const keyId = index.keyIdOf(row.key);
    const label = keyId ?? "none";
    sealedWith[label] = (sealedWith[label] ?? 0) + 1;
    const current =
      keyId === first && sealer.keyIdOf(row.email) === first && (row.name === null || sealer.keyIdOf(row.name) === first);
    if (current) continue;
    let opened: Subscriber;
    try {
      opened = openSubscriber(row, sealer, index);
    } catch (err) {
      onFailure(row.key, err);
      unreadable += 1;
      continue;
    }
    const to = index.of(opened.email);
    await inner.rekey(row.key, to, sealer.seal(opened.email, to), opened.name === null ? null : sealer.seal(opened.name, to));
    sealedAgain += 1;
  }
  return { subscribers: rows.length, sealedWith, sealedAgain, unreadable };
}
