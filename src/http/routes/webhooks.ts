import { randomBytes, randomUUID } from "node:crypto";
import { z } from "zod";
import { defineRoute, type Caller, type Route } from "../route.js";
import type { AppDeps } from "../app-deps.js";
import { ApiError } from "../error-codes.js";
import {
  createWebhookBody,
  testWebhookBody,
  updateWebhookBody,
  webhookCreatedSchema,
  webhookDeletedSchema,
  webhookDeliveriesSchema,
  webhookIdParams,
  webhookListItemSchema,
  webhookListSchema,
  webhookSecretSchema,
  webhookTestResultSchema,
} from "../schemas/webhooks.js";
import type { ActorHost } from "../../runtime/actor-host.js";
import { WebhookSubscriptionActor } from "../../actors/webhook-subscription-actor.js";
import { buildTestRequest } from "../../domain/webhooks/delivery-request.js";
import { MAX_DELIVERY_RECORDS, MAX_SUBSCRIPTIONS_PER_KEY } from "../../domain/webhooks/limits.js";
import { generateSecret } from "../../domain/webhooks/secret.js";
import { createSubscription, isOwnedBy, type WebhookSubscription } from "../../domain/webhooks/subscription.js";
import { checkWebhookTarget, type TargetCheck } from "../../webhook-delivery/target-check.js";
import type { Deliver } from "../../webhook-delivery/http-deliverer.js";
import { webhookResolver } from "../../webhook-delivery/resolver.js";
import type { WebhookRepository } from "../../store/ports/webhooks.js";

export interface WebhookRouteDeps extends AppDeps {
  readonly host: ActorHost;
  readonly deliver: Deliver;
  /** The subscriptions with their secrets opened (the store holds them sealed when keys are set). */
  readonly webhooks: WebhookRepository;
}

const basic = { kind: "key", tier: "basic" } as const;
const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

const TARGET_MESSAGES: Record<Exclude<TargetCheck, { ok: true }>["reason"], string> = {
  invalid_url: "URL must be a valid https URL without credentials",
  https_required: "URL scheme must be https",
  host_not_public: "URL host must resolve, and only to public addresses (not loopback, private, link-local, metadata, translation…)",
  forbidden_address: "URL must not be a special-purpose (loopback, private, link-local, metadata, translation…) address",
};

/**
 * Each test call sends at once to up to 5 URLs the caller chose: without a limit of its own a
 * Basic key's 300 calls a minute would be 1,500 outbound HTTPS connections a minute, a handy
 * amplifier against a third party. Ten a minute is plenty to check a receiver.
 */
const TEST_LIMIT = { name: "webhook-test", limit: 10, windowSeconds: 60 } as const;

/**
 * The owner of a caller's subscriptions: the key's lineage (its usage id: the first key of its
 * rotation chain), never the key. A rotated key keeps its subscriptions without moving them.
 */
function ownerOf(caller: Caller): string {
  return caller.key.usageId;
}

function listItem(s: WebhookSubscription): z.input<typeof webhookListItemSchema> {
  return {
    id: s.id,
    url: s.url,
    events: [...s.events],
    secret: null,
    is_active: s.isActive,
    disabled_reason: s.disabledReason,
    created_at: new Date(s.createdAt).toISOString(),
    last_triggered_at: iso(s.lastTriggeredAt),
    failures_since_success: s.failuresSinceSuccess,
  };
}

/**
 * SPEC endpoints 21-24 and DECISIONS 5 (Basic and above). Reads come from the store; changes
 * to an existing subscription go through its actor, the store's only writer after creation.
 * Another key's id is answered exactly like a missing one (404), so ids cannot be probed.
 */
export function webhookRoutes(deps: WebhookRouteDeps): Route[] {
  const repo = deps.webhooks;
  const actor = (id: string) => deps.host.proxy(WebhookSubscriptionActor, id);
  // Registrations of one key run one at a time in this process. The limit itself is enforced
  // by the store across processes (an IMMEDIATE transaction on SQLite, unique slot documents on
  // MongoDB); this queue only spares a key's concurrent requests the store's conflicts.
  const registering = new Map<string, Promise<unknown>>();
  const resolve = webhookResolver(deps.config.WEBHOOK_DNS_SERVERS);

  /**
   * A change goes through the subscription's actor. During a warm-up on Dapr the actors run on
   * the founder's in-process host and move into Dapr at its end, each one's state written over
   * what Dapr holds: a pause, rotation or delete made meanwhile on the Dapr copy would be undone
   * by the handover (a rotated secret silently back). Refused on every host, so the API answers
   * the same on one process as on a cluster; reads and registrations are unaffected.
   */
  function notWhileWarmingUp(): void {
    if (deps.marketClock.warmingUp) {
      throw new ApiError("warming_up", { message: "The service is warming up; changes to a webhook are accepted once it is over (readiness at /v1/health/ready). Try again shortly." });
    }
  }

  async function owned(id: string, caller: Caller): Promise<WebhookSubscription> {
    const s = await repo.get(id);
    if (s === null || !isOwnedBy(s, ownerOf(caller))) throw new ApiError("webhook_not_found");
    return s;
  }

  async function register(owner: string, url: string, events: WebhookSubscription["events"]): Promise<WebhookSubscription> {
    // The limit first: a key at its limit gets DECISIONS 5's 409 whatever the URL, and cannot make
    // the service look up names of its choosing (two DNS queries a request, up to the tier's rate).
    // The insert below counts again, atomically, for registrations that race.
    if ((await repo.listByOwner(owner)).length >= MAX_SUBSCRIPTIONS_PER_KEY) throw new ApiError("webhook_limit_reached", { limit: MAX_SUBSCRIPTIONS_PER_KEY });
    const check = await checkWebhookTarget(url, { allowPrivateTargets: deps.config.WEBHOOK_ALLOW_PRIVATE_TARGETS, resolve });
    if (!check.ok) throw new ApiError("validation_failed", { issues: [{ loc: ["body", "url"], msg: TARGET_MESSAGES[check.reason], type: `url_${check.reason}` }] });
    const subscription = createSubscription({
      id: `wh_${randomBytes(12).toString("base64url")}`,
      ownerKeyId: owner,
      url,
      events,
      secret: generateSecret(randomBytes),
      now: deps.wallClock.now(),
    });
    if (!(await repo.insertWithinLimit(subscription, MAX_SUBSCRIPTIONS_PER_KEY))) {
      throw new ApiError("webhook_limit_reached", { limit: MAX_SUBSCRIPTIONS_PER_KEY });
    }
    return subscription;
  }

  return [
    defineRoute({
      method: "post",
      path: "/v1/webhooks",
      summary: "Register a webhook (the secret is shown only in this response)",
      description: "HTTPS only; the host must not resolve to a loopback, private, link-local or metadata address. At most 5 per key (409).",
      tags: ["webhooks"],
      access: basic,
      body: createWebhookBody,
      response: webhookCreatedSchema,
      successStatus: 201,
      errors: ["webhook_limit_reached", "validation_failed"],
      handler: async ({ body, caller }) => {
        const owner = ownerOf(caller);
        const previous = registering.get(owner) ?? Promise.resolve();
        const run = previous.catch(() => undefined).then(() => register(owner, body.url, body.events));
        registering.set(owner, run);
        try {
          const s = await run;
          return { id: s.id, url: s.url, events: [...s.events], secret: s.secret, is_active: s.isActive, created_at: new Date(s.createdAt).toISOString() };
        } finally {
          if (registering.get(owner) === run) registering.delete(owner);
        }
      },
    }),
    defineRoute({
      method: "get",
      path: "/v1/webhooks",
      summary: "The calling key's webhooks (secrets are never shown again)",
      tags: ["webhooks"],
      access: basic,
      response: webhookListSchema,
      handler: async ({ caller }) => {
        const subs = await repo.listByOwner(ownerOf(caller));
        return { webhooks: subs.map(listItem), count: subs.length };
      },
    }),
    defineRoute({
      method: "delete",
      path: "/v1/webhooks/{id}",
      summary: "Delete a webhook; its pending deliveries and retries are cancelled",
      tags: ["webhooks"],
      access: basic,
      params: webhookIdParams,
      response: webhookDeletedSchema,
      errors: ["webhook_not_found", "validation_failed", "warming_up"],
      handler: async ({ params, caller }) => {
        await owned(params.id, caller);
        notWhileWarmingUp();
        await actor(params.id).remove();
        return { id: params.id, deleted: true as const };
      },
    }),
    defineRoute({
      method: "patch",
      path: "/v1/webhooks/{id}",
      summary: "Pause or re-enable a webhook (re-enabling resets failures_since_success)",
      tags: ["webhooks"],
      access: basic,
      params: webhookIdParams,
      body: updateWebhookBody,
      response: webhookListItemSchema,
      errors: ["webhook_not_found", "validation_failed", "warming_up"],
      handler: async ({ params, body, caller }) => {
        await owned(params.id, caller);
        notWhileWarmingUp();
        const updated = await actor(params.id).setActive(body.is_active);
        if (updated === null) throw new ApiError("webhook_not_found");
        return listItem(updated);
      },
    }),
    defineRoute({
      method: "post",
      path: "/v1/webhooks/test",
      summary: "Send a webhook.test event now to one webhook, or to every active one of the key (10 per minute per key)",
      description: "Not retried; does not touch failures_since_success.",
      tags: ["webhooks"],
      access: { ...basic, limits: [TEST_LIMIT] },
      body: testWebhookBody.optional(),
      response: webhookTestResultSchema,
      errors: ["webhook_not_found", "validation_failed"],
      handler: async ({ body, caller }) => {
        const id = body?.webhook_id;
        const targets = id === undefined ? (await repo.listByOwner(ownerOf(caller))).filter((s) => s.isActive) : [await owned(id, caller)];
        const results = await Promise.all(
          targets.map(async (s) => {
            const outcome = await deps.deliver(buildTestRequest(s, randomUUID(), deps.wallClock.now()));
            return {
              webhook_id: s.id,
              success: outcome.kind === "success",
              status_code: outcome.statusCode,
              error: outcome.kind === "failure" ? outcome.error : null,
              duration_ms: Math.round(outcome.durationMs),
            };
          }),
        );
        const delivered = results.filter((r) => r.success).length;
        return { delivered, failed: results.length - delivered, results };
      },
    }),
    defineRoute({
      method: "post",
      path: "/v1/webhooks/{id}/rotate-secret",
      summary: "Issue a new secret; the old one keeps signing webhook-signature for 24 hours",
      tags: ["webhooks"],
      access: basic,
      params: webhookIdParams,
      response: webhookSecretSchema,
      errors: ["webhook_not_found", "validation_failed", "warming_up"],
      handler: async ({ params, caller }) => {
        await owned(params.id, caller);
        notWhileWarmingUp();
        const rotated = await actor(params.id).rotateSecret();
        if (rotated === null) throw new ApiError("webhook_not_found");
        return { id: params.id, secret: rotated.secret, previous_secret_expires_at: new Date(rotated.previousExpiresAt).toISOString() };
      },
    }),
    defineRoute({
      method: "get",
      path: "/v1/webhooks/{id}/deliveries",
      summary: "Recent delivery attempts of a webhook, newest first",
      tags: ["webhooks"],
      access: basic,
      params: webhookIdParams,
      response: webhookDeliveriesSchema,
      errors: ["webhook_not_found", "validation_failed"],
      handler: async ({ params, caller }) => {
        await owned(params.id, caller);
        const records = await repo.deliveries(params.id, MAX_DELIVERY_RECORDS);
        return {
          webhook_id: params.id,
          deliveries: records.map((r) => ({
            event: r.event,
            delivery_id: r.deliveryId,
            attempt: r.attempt,
            status_code: r.statusCode,
            error: r.error,
            duration_ms: Math.round(r.durationMs),
            attempted_at: new Date(r.at).toISOString(),
            // Without it a subscriber cannot tell an event we gave up on from one still retried.
            next: r.next,
          })),
        };
      },
    }),
  ];
}
