import { WebhookSubscriptionActor } from "../../actors/webhook-subscription-actor.js";
import { webhookRoutes } from "../../http/routes/webhooks.js";
import { SUBSCRIBABLE_EVENT_TYPES } from "../../domain/webhooks/event-types.js";
import { createDeliveryAgent } from "../../webhook-delivery/delivery-agent.js";
import { createHttpDeliverer, type Deliver } from "../../webhook-delivery/http-deliverer.js";
import { webhookResolver } from "../../webhook-delivery/resolver.js";
import { countingDeliveries } from "../../observability/webhook-metrics.js";
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
  const deliverers = new WeakMap<CapabilityContext, Deliver>();
  const deliverFor = (ctx: CapabilityContext): Deliver => {
    let deliver = deliverers.get(ctx);
    if (deliver === undefined) {
      const agent = createDeliveryAgent({
        allowPrivateTargets: ctx.config.WEBHOOK_ALLOW_PRIVATE_TARGETS,
        resolve: webhookResolver(ctx.config.WEBHOOK_DNS_SERVERS),
        ...(options.ca === undefined ? {} : { ca: options.ca }),
      });
      deliver = countingDeliveries(createHttpDeliverer({ agent }));
      deliverers.set(ctx, deliver);
    }
    return deliver;
  };

  return {
    name: "webhooks",
    registerActors(ctx) {
      // Issue 19: subscriptions belong to a key lineage, so they follow rotations with nothing to
      // move, and stop once the lineage has no active key (deactivated anywhere: HTTP, the CLI,
      // another replica), checked before every send.
      const ownerActive = async (owner: string): Promise<boolean> => (await ctx.store.apiKeys.findActiveByUsageId(owner)) !== null;
      const deps = { repo: ctx.store.webhooks, deliver: deliverFor(ctx), ownerActive, wall: ctx.wallClock };
      ctx.host.register(WebhookSubscriptionActor, (actorCtx) => new WebhookSubscriptionActor(actorCtx, deps));
      const proxy = (id: string) => ctx.host.proxy(WebhookSubscriptionActor, id);
      ctx.keyLifecycle.listen({
        deactivated: async (owner) => {
          // A rotation racing the deactivation may have left the lineage a live key: its
          // subscriptions are that key's now, and "key_deactivated" would be false.
          if (await ownerActive(owner)) return;
          for (const s of await ctx.store.webhooks.listByOwner(owner)) await proxy(s.id).disableForKey();
        },
      });
      for (const type of SUBSCRIBABLE_EVENT_TYPES) {
        // At least once: if an accept fails, this handler rejects, the outbox keeps the event and
        // publishes it again; actors that already accepted it drop the copy (same delivery id).
        ctx.bus.subscribe(type, async (event) => {
          const { subscriptions: recipients, unreadable } = await ctx.store.webhooks.listActiveFor(type);
          if (unreadable.length > 0) ctx.logger.error({ webhook_ids: unreadable, event: type }, "webhook subscriptions unreadable: left out of the fan-out");
          await Promise.all(recipients.map((s) => ctx.host.proxy(WebhookSubscriptionActor, s.id).accept(event)));
        });
      }
    },
    async start(ctx) {
      // Re-arm every pending schedule from the actor state, which a lost reminder cannot undo.
      const { subscriptions: active, unreadable } = await ctx.store.webhooks.listActive();
      if (unreadable.length > 0) ctx.logger.error({ webhook_ids: unreadable }, "webhook subscriptions unreadable: not resumed");
      const resumed = await Promise.all(active.map((s) => ctx.host.proxy(WebhookSubscriptionActor, s.id).resume()));
      const pending = resumed.reduce((sum, n) => sum + n, 0);
      if (pending > 0) ctx.logger.info({ subscriptions: active.length, pending }, "webhook deliveries resumed");
    },
    routes: (ctx) => webhookRoutes({ ...ctx, deliver: deliverFor(ctx) }),
  };
}

export const webhooksCapability: Capability = createWebhooksCapability();
