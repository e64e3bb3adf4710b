import { WebhookSubscriptionActor } from "../../actors/webhook-subscription-actor.js";
import { webhookRoutes } from "../../http/routes/webhooks.js";
import { SUBSCRIBABLE_EVENT_TYPES } from "../../domain/webhooks/event-types.js";
import { createDeliveryAgent } from "../../webhook-delivery/delivery-agent.js";
import { createHttpDeliverer, type Deliver } from "../../webhook-delivery/http-deliverer.js";
import { webhookResolver } from "../../webhook-delivery/resolver.js";
import { countingDeliveries, countingNotices, countUnsealFailure } from "../../observability/webhook-metrics.js";
import { createSecretSealer, type SecretSealer } from "../../sealing/secret-sealer.js";
import { sealedWebhooks, type UnsealFailure } from "../../webhook-delivery/sealed-webhooks.js";
import type { WebhookRepository } from "../../store/ports/webhooks.js";
import { noticeMail, type OwnerNotice } from "../../domain/webhooks/owner-notice.js";
import type { WebhookSubscription } from "../../domain/webhooks/subscription.js";
import type { Capability, CapabilityContext } from "../capability.js";

export interface WebhooksCapabilityOptions {
  /** Tests only: the CA of the test receiver, trusted by the delivery agent (DECISIONS 5 item 10). */
  readonly ca?: string | Buffer;
}

/**
 * Webhooks (issue 9): one WebhookSubscription actor per subscription; the fan-out hands every
 * subscribable bus event to the actors of the active subscriptions that want it; the routes of
 * SPEC 21-24 and DECISIONS 5. Listed last, so every producer above it is registered first.
 */
export function createWebhooksCapability(options: WebhooksCapabilityOptions = {}): Capability {
  // One deliverer per service (a test process may run several services).
  const deliverFor = perService((ctx): Deliver => {
    const agent = createDeliveryAgent({
      allowPrivateTargets: ctx.config.WEBHOOK_ALLOW_PRIVATE_TARGETS,
      resolve: webhookResolver(ctx.config.WEBHOOK_DNS_SERVERS),
      ...(options.ca === undefined ? {} : { ca: options.ca }),
    });
    return countingDeliveries(createHttpDeliverer({ agent }));
  });

  // The subscriptions with their secrets sealed at rest (docs/security.md), one per service.
  const sealingFor = perService((ctx): { sealer: SecretSealer; repo: WebhookRepository; onUnsealFailure: UnsealFailure } => {
    const sealer = createSecretSealer(ctx.config.WEBHOOK_SECRET_KEYS ?? []);
    // The store's copy and each actor's own copy alike.
    const onUnsealFailure: UnsealFailure = (webhookId, err) => {
      countUnsealFailure(err);
      ctx.logger.error({ webhook_id: webhookId, reason: err instanceof Error ? err.message : "unknown" }, "webhook secret could not be opened");
    };
    return { sealer, repo: sealedWebhooks(ctx.store.webhooks, sealer, onUnsealFailure), onUnsealFailure };
  });

  return {
    name: "webhooks",
    registerActors(ctx) {
      const { sealer, repo, onUnsealFailure } = sealingFor(ctx);
      // Issue 19: subscriptions belong to a key lineage, so they follow rotations with nothing to
      // move, and stop once the lineage has no active key (deactivated anywhere: HTTP, the CLI,
      // another replica), checked before every send.
      const ownerActive = async (owner: string): Promise<boolean> => (await ctx.store.apiKeys.findActiveByUsageId(owner)) !== null;
      // Delivery results disabled a subscription: its owner is mailed (fixed words, shared limits).
      const noticeOwner = countingNotices((s: WebhookSubscription, notice: OwnerNotice) => ctx.keyOwnerMail.send(s.ownerKeyId, noticeMail(s, notice, ctx.config.PUBLIC_BASE_URL)));
      const deps = { repo, deliver: deliverFor(ctx), ownerActive, wall: ctx.wallClock, sealer, onUnsealFailure, noticeOwner };
      ctx.host.register(WebhookSubscriptionActor, (actorCtx) => new WebhookSubscriptionActor(actorCtx, deps));
      const proxy = (id: string) => ctx.host.proxy(WebhookSubscriptionActor, id);
      ctx.keyLifecycle.listen({
        deactivated: async (owner) => {
          // A rotation racing the deactivation may have left the lineage a live key: its
          // subscriptions are that key's now, and "key_deactivated" would be false.
          if (await ownerActive(owner)) return;
          // Ids only, from the store as it is (a secret that does not open must not hide one).
          // The key is already deactivated when this runs: a subscription whose actor cannot
          // take the change now (its state unreadable, its host moving) is logged, not turned
          // into a 500 the caller cannot retry with a dead key; its actor checks the lineage
          // before every send, so it sends nothing either way.
          const owned = (await ctx.store.webhooks.listByOwner(owner)).map((s) => s.id);
          await eachActor(ctx, owned, (id) => proxy(id).disableForKey(), "webhook subscription not marked key_deactivated: its actor refused the change");
        },
      });
      for (const type of SUBSCRIBABLE_EVENT_TYPES) {
        // At least once: if an accept fails, this handler rejects, the outbox keeps the event and
        // publishes it again; actors that already accepted it drop the copy (same delivery id).
        ctx.bus.subscribe(type, async (event) => {
          const { subscriptions: recipients, unreadable } = await repo.listActiveFor(type);
          if (unreadable.length > 0) ctx.logger.error({ webhook_ids: unreadable, event: type }, "webhook subscriptions unreadable: left out of the fan-out");
          await Promise.all(recipients.map((s) => ctx.host.proxy(WebhookSubscriptionActor, s.id).accept(event)));
        });
      }
    },
    async start(ctx) {
      const { sealer, repo } = sealingFor(ctx);
      await resealOutdated(ctx, sealer);
      // Re-arm every pending schedule from the actor state, which a lost reminder cannot undo.
      const { subscriptions: active, unreadable } = await repo.listActive();
      if (unreadable.length > 0) ctx.logger.error({ webhook_ids: unreadable }, "webhook subscriptions unreadable: not resumed");
      const resumed = await Promise.all(active.map((s) => ctx.host.proxy(WebhookSubscriptionActor, s.id).resume()));
      const pending = resumed.reduce((sum, n) => sum + n, 0);
      if (pending > 0) ctx.logger.info({ subscriptions: active.length, pending }, "webhook deliveries resumed");
    },
    routes: (ctx) => webhookRoutes({ ...ctx, deliver: deliverFor(ctx), webhooks: sealingFor(ctx).repo }),
  };
}

/** Memoises a per-service object: a capability is one value, and a test process may run several services. */
function perService<T>(make: (ctx: CapabilityContext) => T): (ctx: CapabilityContext) => T {
  const made = new WeakMap<CapabilityContext, T>();
  return (ctx) => {
    let value = made.get(ctx);
    if (value === undefined) {
      value = make(ctx);
      made.set(ctx, value);
    }
    return value;
  };
}

/**
 * Asks the actors of `ids` for one change each, all at once; one that refuses is logged with
 * `failure` and does not stop the others. Returns how many took it.
 */
async function eachActor(ctx: CapabilityContext, ids: readonly string[], call: (id: string) => Promise<unknown>, failure: string): Promise<number> {
  const results = await Promise.allSettled(ids.map(call));
  results.forEach((r, i) => {
    if (r.status === "rejected") ctx.logger.error({ err: r.reason, webhook_id: ids[i] }, failure);
  });
  return results.filter((r) => r.status === "fulfilled").length;
}

/**
 * With a sealing key set, every subscription whose stored secret is not under it (stored as
 * issued, or under a key being replaced) has its actor write both copies again, paused ones
 * included, which no delivery would rewrite. So a key is replaced by one restart with `new,old`,
 * after which `old` holds nothing. Then the operator is told which key seals and how many
 * subscriptions each key (or none) still holds: an old key can go once it counts none.
 */
async function resealOutdated(ctx: CapabilityContext, sealer: SecretSealer): Promise<void> {
  const count = async (): Promise<{ total: number; held: Record<string, number>; outdated: string[] }> => {
    const { subscriptions } = await ctx.store.webhooks.listAll();
    const held: Record<string, number> = {};
    const outdated: string[] = [];
    for (const s of subscriptions) {
      const key = sealer.keyIdOf(s.secret);
      const label = key ?? "none";
      held[label] = (held[label] ?? 0) + 1;
      if (sealer.sealingKeyId !== null && key !== sealer.sealingKeyId) outdated.push(s.id);
    }
    return { total: subscriptions.length, held, outdated };
  };
  const before = await count();
  if (sealer.sealingKeyId === null) {
    // A warning once there is something to protect; before that, a hint.
    ctx.logger[before.total > 0 ? "warn" : "info"]({ subscriptions: before.total, sealed_with: before.held }, "webhook secrets are stored as issued: set WEBHOOK_SECRET_KEYS to seal them at rest");
    return;
  }
  const sealedAgain = await eachActor(ctx, before.outdated, (id) => ctx.host.proxy(WebhookSubscriptionActor, id).reseal(), "webhook secret not sealed again: its actor refused");
  const after = before.outdated.length === 0 ? before : await count();
  ctx.logger.info(
    { sealing_key: sealer.sealingKeyId, subscriptions: after.total, sealed_with: after.held, sealed_again: sealedAgain },
    "webhook secrets sealed at rest",
  );
}

export const webhooksCapability: Capability = createWebhooksCapability();
