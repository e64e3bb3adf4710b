import type { SqliteDb } from "./database.js";
import type { SqliteMigration } from "./migrate.js";
import { readSubscriptionRows, type SubscriptionList, type WebhookRepository } from "../ports/webhooks.js";
import type { SubscribableEventType } from "../../domain/webhooks/event-types.js";
import type { DeliveryRecord } from "../../domain/webhooks/delivery-state.js";
import type { WebhookSubscription } from "../../domain/webhooks/subscription.js";
import { deliveryRecordSchema, subscriptionSchema } from "../../webhook-delivery/state-schema.js";

export const webhookMigrations: readonly SqliteMigration[] = [
  {
    component: "webhooks",
    version: 1,
    // The whole subscription is one validated JSON document (`doc`); the columns beside it are
    // only what queries filter on. The delivery log is bounded per subscription by the writer.
    up: `
      CREATE TABLE webhook_subscriptions (
        id TEXT PRIMARY KEY, owner_key_id TEXT NOT NULL, is_active INTEGER NOT NULL,
        events TEXT NOT NULL, created_at INTEGER NOT NULL, doc TEXT NOT NULL);
      CREATE INDEX webhook_subscriptions_owner ON webhook_subscriptions (owner_key_id, created_at);
      CREATE TABLE webhook_deliveries (
        seq INTEGER PRIMARY KEY AUTOINCREMENT, subscription_id TEXT NOT NULL, doc TEXT NOT NULL);
      CREATE INDEX webhook_deliveries_sub ON webhook_deliveries (subscription_id, seq);`,
  },
];

const parseSub = (row: { doc: string }): WebhookSubscription => subscriptionSchema.parse(JSON.parse(row.doc));

export class SqliteWebhooks implements WebhookRepository {
  private readonly count;
  private readonly insert;
  private readonly byId;
  private readonly byOwner;
  private readonly activeFor;
  private readonly active;
  private readonly all;
  private readonly update;
  private readonly remove;
  private readonly removeDeliveries;
  private readonly addDelivery;
  private readonly prune;
  private readonly recent;

  constructor(private readonly db: SqliteDb) {
    this.count = db.prepare<[string], { n: number }>("SELECT COUNT(*) AS n FROM webhook_subscriptions WHERE owner_key_id = ?");
    this.insert = db.prepare("INSERT INTO webhook_subscriptions (id, owner_key_id, is_active, events, created_at, doc) VALUES (?, ?, ?, ?, ?, ?)");
    this.byId = db.prepare<[string], { doc: string }>("SELECT doc FROM webhook_subscriptions WHERE id = ?");
    this.byOwner = db.prepare<[string], { doc: string }>("SELECT doc FROM webhook_subscriptions WHERE owner_key_id = ? ORDER BY created_at, id");
    this.activeFor = db.prepare<[string], { id: string; doc: string }>(
      `SELECT id, doc FROM webhook_subscriptions
       WHERE is_active = 1 AND EXISTS (SELECT 1 FROM json_each(events) WHERE json_each.value = ?) ORDER BY created_at, id`,
    );
    this.active = db.prepare<[], { id: string; doc: string }>("SELECT id, doc FROM webhook_subscriptions WHERE is_active = 1 ORDER BY created_at, id");
    this.all = db.prepare<[], { id: string; doc: string }>("SELECT id, doc FROM webhook_subscriptions ORDER BY created_at, id");
    this.update = db.prepare("UPDATE webhook_subscriptions SET owner_key_id = ?, is_active = ?, events = ?, doc = ? WHERE id = ?");
    this.remove = db.prepare("DELETE FROM webhook_subscriptions WHERE id = ?");
    this.removeDeliveries = db.prepare("DELETE FROM webhook_deliveries WHERE subscription_id = ?");
    this.addDelivery = db.prepare("INSERT INTO webhook_deliveries (subscription_id, doc) VALUES (?, ?)");
    this.prune = db.prepare(
      `DELETE FROM webhook_deliveries WHERE subscription_id = ? AND seq <= COALESCE(
         (SELECT seq FROM webhook_deliveries WHERE subscription_id = ? ORDER BY seq DESC LIMIT 1 OFFSET ?), -1)`,
    );
    this.recent = db.prepare<[string, number], { doc: string }>(
      "SELECT doc FROM webhook_deliveries WHERE subscription_id = ? ORDER BY seq DESC LIMIT ?",
    );
  }

  async insertWithinLimit(s: WebhookSubscription, limit: number): Promise<boolean> {
    // IMMEDIATE: the count and the insert hold the write lock together, so two concurrent
    // registrations of one key (even from two processes) cannot both take the fifth slot.
    return this.db.transaction(() => {
      if ((this.count.get(s.ownerKeyId)?.n ?? 0) >= limit) return false;
      this.insert.run(s.id, s.ownerKeyId, s.isActive ? 1 : 0, JSON.stringify(s.events), s.createdAt, JSON.stringify(s));
      return true;
    }).immediate();
  }

  async get(id: string): Promise<WebhookSubscription | null> {
    const row = this.byId.get(id);
    return row === undefined ? null : parseSub(row);
  }

  async listByOwner(ownerKeyId: string): Promise<WebhookSubscription[]> {
    return this.byOwner.all(ownerKeyId).map(parseSub);
  }

  async listActiveFor(event: SubscribableEventType): Promise<SubscriptionList> {
    return readSubscriptionRows(this.activeFor.all(event), (r) => r.id, (r) => r.doc);
  }

  async listActive(): Promise<SubscriptionList> {
    return readSubscriptionRows(this.active.all(), (r) => r.id, (r) => r.doc);
  }

  async listAll(): Promise<SubscriptionList> {
    return readSubscriptionRows(this.all.all(), (r) => r.id, (r) => r.doc);
  }

  async save(s: WebhookSubscription): Promise<void> {
    this.update.run(s.ownerKeyId, s.isActive ? 1 : 0, JSON.stringify(s.events), JSON.stringify(s), s.id);
  }

  async delete(id: string): Promise<boolean> {
    return this.db.transaction(() => {
      this.removeDeliveries.run(id);
      return this.remove.run(id).changes > 0;
    }).immediate();
  }

  async appendDeliveries(subscriptionId: string, records: readonly DeliveryRecord[], keep: number): Promise<void> {
    if (records.length === 0) return;
    this.db.transaction(() => {
      for (const r of records) this.addDelivery.run(subscriptionId, JSON.stringify(r));
      this.prune.run(subscriptionId, subscriptionId, keep);
    }).immediate();
  }

  async deliveries(subscriptionId: string, limit: number): Promise<DeliveryRecord[]> {
    return this.recent.all(subscriptionId, limit).map((row) => deliveryRecordSchema.parse(JSON.parse(row.doc)));
  }
}
