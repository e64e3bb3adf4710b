import type { SubscribableEventType } from "../../domain/webhooks/event-types.js";
import type { DeliveryRecord } from "../../domain/webhooks/delivery-state.js";
import type { WebhookSubscription } from "../../domain/webhooks/subscription.js";
import { readEachRow } from "../../domain/ghost/ledger-json.js";
import { subscriptionSchema } from "../../webhook-delivery/state-schema.js";

/**
 * The subscriptions a list found readable, and the ids of rows it could not read (a hand edit, a
 * build that wrote another shape): one bad row must not stop every other customer's events.
 */
export interface SubscriptionList {
  readonly subscriptions: WebhookSubscription[];
  readonly unreadable: string[];
}

/** Reads each stored row on its own (readEachRow); `doc` is the row's JSON text or its parsed document. */
export function readSubscriptionRows<R>(rows: readonly R[], id: (row: R) => string, doc: (row: R) => unknown): SubscriptionList {
  const { read, refused } = readEachRow(subscriptionSchema, rows, (row) => parsedDoc(doc(row)));
  return { subscriptions: read, unreadable: refused.map(id) };
}

/** JSON text parsed, or undefined (which no schema reads) when it is not JSON. */
function parsedDoc(raw: unknown): unknown {
  if (typeof raw !== "string") return raw;
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * Webhook subscriptions and their bounded delivery log. The subscription's WebhookSubscription
 * actor is its only writer after creation (one turn at a time, so writes of one row never
 * race); the HTTP routes and the fan-out read from here, never from the actors.
 *
 * `ownerKeyId` is the owning key's usage id (its lineage: the id of the first key of its rotation
 * chain, which for a key never rotated is its own id), never the key. An adapter stores `secret`
 * as it is given: the service hands it sealed (src/webhook-delivery/sealed-webhooks.ts) when
 * WEBHOOK_SECRET_KEYS is set, as issued otherwise (docs/security.md).
 */
export interface WebhookRepository {
  /**
   * Stores a new subscription unless its owner already has `limit`; false when the limit is
   * reached. Atomic on SQLite (one transaction) and on MongoDB (unique slot documents; see the adapter).
   */
  insertWithinLimit(subscription: WebhookSubscription, limit: number): Promise<boolean>;
  get(id: string): Promise<WebhookSubscription | null>;
  /** Oldest first. */
  listByOwner(ownerKeyId: string): Promise<WebhookSubscription[]>;
  /** Active subscriptions that asked for `event`: the fan-out's recipients. */
  listActiveFor(event: SubscribableEventType): Promise<SubscriptionList>;
  /** Every active subscription: the start-up resume list. */
  listActive(): Promise<SubscriptionList>;
  /** Every subscription, active or not, oldest first: the start-up check of how each secret is sealed. */
  listAll(): Promise<SubscriptionList>;
  /** Writes the actor's view of a subscription; a deleted subscription stays deleted. */
  save(subscription: WebhookSubscription): Promise<void>;
  /** Removes the subscription and its delivery log; false when it did not exist. */
  delete(id: string): Promise<boolean>;
  /** Appends attempts and keeps only the newest `keep` of the subscription. */
  appendDeliveries(subscriptionId: string, records: readonly DeliveryRecord[], keep: number): Promise<void>;
  /** Newest first. */
  deliveries(subscriptionId: string, limit: number): Promise<DeliveryRecord[]>;
}
