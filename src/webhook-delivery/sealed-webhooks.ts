import type { SubscriptionList, WebhookRepository } from "../store/ports/webhooks.js";
import type { WebhookSubscription } from "../domain/webhooks/subscription.js";
import type { SecretSealer } from "../sealing/secret-sealer.js";

/** The subscription as it is written: its current and replaced secrets sealed. */
export function sealSubscription(s: WebhookSubscription, sealer: SecretSealer): WebhookSubscription {
  return {
    ...s,
    secret: sealer.seal(s.secret, s.id),
    previousSecrets: s.previousSecrets.map((p) => ({ ...p, secret: sealer.seal(p.secret, s.id) })),
  };
}

/** The subscription as the domain works with it: every secret opened. Throws SecretUnsealError. */
export function unsealSubscription(s: WebhookSubscription, sealer: SecretSealer): WebhookSubscription {
  return {
    ...s,
    secret: sealer.unseal(s.secret, s.id),
    previousSecrets: s.previousSecrets.map((p) => ({ ...p, secret: sealer.unseal(p.secret, s.id) })),
  };
}

/** Told of each subscription whose secret could not be opened, so the operator learns why. */
export type UnsealFailure = (subscriptionId: string, err: unknown) => void;

/**
 * The webhook repository with sealed secrets (src/sealing/secret-sealer.ts): every
 * write seals, every read opens, on either store. A listed subscription whose secret does not
 * open is left out like any unreadable row (one row must not stop every other customer's events);
 * a read of one (or of an owner's list, which the test route signs with) throws, so a route or a
 * turn fails instead of signing with nonsense.
 */
export function sealedWebhooks(inner: WebhookRepository, sealer: SecretSealer, onFailure: UnsealFailure): WebhookRepository {
  const openList = (list: SubscriptionList): SubscriptionList => {
    const subscriptions: WebhookSubscription[] = [];
    const unreadable = [...list.unreadable];
    for (const s of list.subscriptions) {
      try {
        subscriptions.push(unsealSubscription(s, sealer));
      } catch (err) {
        onFailure(s.id, err);
        unreadable.push(s.id);
      }
    }
    return { subscriptions, unreadable };
  };
  const openOne = (s: WebhookSubscription): WebhookSubscription => {
    try {
      return unsealSubscription(s, sealer);
    } catch (err) {
      onFailure(s.id, err);
      throw err;
    }
  };

  return {
    insertWithinLimit: (s, limit) => inner.insertWithinLimit(sealSubscription(s, sealer), limit),
    get: async (id) => {
      const s = await inner.get(id);
      return s === null ? null : openOne(s);
    },
    // The test route signs with these, so a secret that does not open fails the call (logged
    // with its reason) rather than hide a subscription from its owner's list.
    listByOwner: async (owner) => (await inner.listByOwner(owner)).map(openOne),
    listActiveFor: async (event) => openList(await inner.listActiveFor(event)),
    listActive: async () => openList(await inner.listActive()),
    listAll: async () => openList(await inner.listAll()),
    save: (s) => inner.save(sealSubscription(s, sealer)),
    delete: (id) => inner.delete(id),
    appendDeliveries: (id, records, keep) => inner.appendDeliveries(id, records, keep),
    deliveries: (id, limit) => inner.deliveries(id, limit),
  };
}
