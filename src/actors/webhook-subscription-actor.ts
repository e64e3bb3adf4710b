import { randomBytes } from "node:crypto";
import { errorSummary } from "../logging/error-summary.js";
import { Actor } from "../runtime/actor.js";
import type { ActorContext } from "../runtime/actor-context.js";
import { fromJsonText, toJsonText, type Json } from "../runtime/json.js";
import type { Clock } from "../runtime/clocks/clock.js";
import { z } from "zod";
import { eventEnvelopeSchema, type EventEnvelope } from "../events/event-envelope.js";
import type { WebhookRepository } from "../store/ports/webhooks.js";
import type { Deliver } from "../webhook-delivery/http-deliverer.js";
import { subscriptionStateSchema } from "../webhook-delivery/state-schema.js";
import { SecretUnsealError, type SecretSealer } from "../sealing/secret-sealer.js";
import { sealSubscription, unsealSubscription, type UnsealFailure } from "../webhook-delivery/sealed-webhooks.js";
import { buildDeliveryRequest } from "../domain/webhooks/delivery-request.js";
import * as machine from "../domain/webhooks/delivery-state.js";
import type { DeliveryRecord, SubscriptionState } from "../domain/webhooks/delivery-state.js";
import { isSubscribableEventType } from "../domain/webhooks/event-types.js";
import type { JsonValue, WebhookEvent } from "../domain/webhooks/webhook-body.js";
import { MAX_DELIVERY_RECORDS } from "../domain/webhooks/limits.js";
import { generateSecret } from "../domain/webhooks/secret.js";
import type { WebhookSubscription } from "../domain/webhooks/subscription.js";
import type { NoticeResult, OwnerNotice } from "../domain/webhooks/owner-notice.js";

const STATE = "state";
const REMINDER = "deliver";

export interface WebhookActorDeps {
  readonly repo: WebhookRepository;
  readonly deliver: Deliver;
  /**
   * Whether the owning key lineage still has an active key. Asked before every send, so a key
   * deactivated anywhere (HTTP, the CLI, another replica) stops its webhooks at the next attempt,
   * while a rotation (the lineage's next key active as the old one goes) does not.
   */
  readonly ownerActive: (owner: string) => Promise<boolean>;
  /**
   * WALL time. Retries (5/25/125 s), timeouts and subscription timestamps are about the
   * receiver, not the market, so the state machine runs on this clock, never on ctx.clock
   * (market time, 60x fast in replay), and the reminder is a wall reminder. It must be the
   * clock the host fires wall reminders by (the composition root hands both the same one).
   */
  readonly wall: Clock;
  /**
   * Seals the secrets the actor state holds, as `repo` seals the store's copy (docs/security.md):
   * the state store is read by whoever reads Redis or MongoDB, not only by this actor.
   */
  readonly sealer: SecretSealer;
  /** Told when the state's own copy of a secret does not open, as the store's copy tells it. */
  readonly onUnsealFailure: UnsealFailure;
  /**
   * Tells the key's owner that delivery results disabled the subscription (an e-mail to the
   * address the lineage's key was generated with; src/application/key-owner-mail.ts).
   */
  readonly noticeOwner: (subscription: WebhookSubscription, notice: OwnerNotice) => Promise<NoticeResult>;
}

export interface AcceptResult {
  readonly accepted: boolean;
  /** `malformed`: not an event envelope (from a replica of another build); dropped, not retried. */
  readonly reason: "accepted" | "not_subscribed" | "duplicate" | "deleted" | "malformed";
}

export interface RotatedSecret {
  readonly secret: string;
  readonly previousExpiresAt: number;
}

/** The state as it is written: the subscription's secrets sealed. */
function sealedState(state: SubscriptionState, sealer: SecretSealer): SubscriptionState {
  return { ...state, subscription: sealSubscription(state.subscription, sealer) };
}

/** Plain data of the state machine, as the JSON the actor state holds. */
function asJson(state: SubscriptionState): Json {
  return fromJsonText(toJsonText(state)) as Json;
}

function toWebhookEvent(envelope: EventEnvelope): WebhookEvent | null {
  if (!isSubscribableEventType(envelope.event)) return null;
  const data = envelope.data;
  if (data === null || typeof data !== "object" || Array.isArray(data)) return null;
  return { id: envelope.id, type: envelope.event, timestamp: envelope.timestamp, data: data as { readonly [key: string]: JsonValue } };
}

/**
 * One webhook subscription's deliveries (SPEC "Events", DECISIONS 5): accepts events from the
 * fan-out (idempotent by delivery id), sends them from its durable reminder turn, retries on
 * the 5/25/125 s schedule, counts failures and disables at 10. Its state is the pure state
 * machine of src/domain/webhooks/delivery-state.ts; after every change it writes the
 * subscription and the new delivery-log rows to the store, which the HTTP routes read.
 *
 * Network I/O happens inside the reminder turn (bounded by the 10 s per-attempt timeout, all
 * due attempts in parallel), never inside `accept`: the bus waits for `accept`, and a slow
 * receiver must not hold up every other consumer of the bus.
 */
export class WebhookSubscriptionActor extends Actor {
  static readonly actorType = "WebhookSubscription";

  constructor(
    ctx: ActorContext,
    private readonly deps: WebhookActorDeps,
  ) {
    super(ctx);
  }

  /** An event from the bus; queued and sent at once by the reminder turn it arms. */
  async accept(envelope: EventEnvelope): Promise<AcceptResult> {
    // On Dapr this is JSON another replica sent, possibly of another build. A malformed envelope
    // is answered, not thrown: the fan-out would otherwise republish it from the outbox forever.
    const parsed = eventEnvelopeSchema.safeParse(envelope);
    if (!parsed.success) {
      this.ctx.logger.warn({ fields: parsed.error.issues.map((i) => i.path.join(".")) }, "webhook event dropped: not an event envelope");
      return { accepted: false, reason: "malformed" };
    }
    const state = await loadState(this.ctx, this.deps);
    if (state === null) return { accepted: false, reason: "deleted" };
    const event = toWebhookEvent(parsed.data);
    if (event === null) return { accepted: false, reason: "not_subscribed" };
    const result = machine.acceptEvent(state, event, this.deps.wall.now());
    if (!result.accepted) return { accepted: false, reason: result.reason };
    this.ctx.state.set(STATE, asJson(sealedState(result.state, this.deps.sealer)));
    armReminder(this.ctx, result.state);
    return { accepted: true, reason: "accepted" };
  }

  /**
   * Start-up: re-arms the reminder from the schedule in the actor state, the source of truth (on
   * Dapr a reminder is registered after its turn committed, so a crash in between loses it).
   */
  async resume(): Promise<number> {
    let state: SubscriptionState | null;
    try {
      state = await loadState(this.ctx, this.deps);
    } catch (err) {
      // Counted and logged by loadState. Thrown on, it failed the whole start-up, retried for
      // ever: one subscription whose own copy no key opens kept the replica from serving.
      if (err instanceof SecretUnsealError) return 0;
      throw err;
    }
    if (state === null) return 0;
    armReminder(this.ctx, state);
    return state.pending.length;
  }

  /** PATCH {is_active}: pausing cancels pending retries; re-enabling resets the failure count. */
  async setActive(active: boolean): Promise<WebhookSubscription | null> {
    z.boolean().parse(active);
    const state = await loadState(this.ctx, this.deps);
    if (state === null) return null;
    const next = machine.setActive(state, active, this.deps.wall.now());
    await commitRequestedChange(this.ctx, this.deps, state, next);
    return next.subscription;
  }

  /** Key deactivation: pending deliveries are cancelled and nothing more is sent. */
  async disableForKey(): Promise<WebhookSubscription | null> {
    const state = await loadState(this.ctx, this.deps);
    if (state === null) return null;
    const next = machine.disableForKey(state, this.deps.wall.now());
    await commitRequestedChange(this.ctx, this.deps, state, next);
    return next.subscription;
  }

  async rotateSecret(): Promise<RotatedSecret | null> {
    const state = await loadState(this.ctx, this.deps);
    if (state === null) return null;
    const now = this.deps.wall.now();
    const next = machine.rotateSecret(state, generateSecret(randomBytes), now);
    await commitRequestedChange(this.ctx, this.deps, state, next);
    return { secret: next.subscription.secret, previousExpiresAt: next.subscription.previousSecrets[0]?.expiresAt ?? now };
  }

  /**
   * Writes both copies of the secrets again (actor state and store row), so they are sealed with
   * the key that seals now: a secret stored as issued, or under a key being replaced, including a
   * paused subscription's, which no delivery would rewrite. Nothing else changes. False when the
   * subscription is gone; throws when its secret does not open.
   */
  async reseal(): Promise<boolean> {
    const state = await loadState(this.ctx, this.deps);
    if (state === null) return false;
    await commitRequestedChange(this.ctx, this.deps, state, state);
    return true;
  }

  /** DELETE: drops pending deliveries, the reminder, the state and the stored subscription. */
  async remove(): Promise<boolean> {
    this.ctx.reminders.delete(REMINDER);
    this.ctx.state.delete(STATE);
    return this.deps.repo.delete(this.ctx.id);
  }

  /** Number of deliveries waiting for an attempt (tests and the start-up log). */
  async pendingCount(): Promise<number> {
    return (await loadState(this.ctx, this.deps))?.pending.length ?? 0;
  }

  override async receiveReminder(name: string): Promise<void> {
    if (name !== REMINDER) return;
    const state = await loadState(this.ctx, this.deps);
    if (state === null) return;
    const now = this.deps.wall.now();
    const due = machine.dueDeliveries(state, now);
    const work = due.length > 0 || machine.noticeDue(state, now) !== null;
    if (work && (await this.deps.repo.get(this.ctx.id)) === null) {
      // Deleted: DELETE removes the row within its turn and the state when the turn commits; a
      // commit that failed in between left this state behind. Finish the delete, send nothing
      // (not even the owner's notice: they removed it).
      this.ctx.reminders.delete(REMINDER);
      this.ctx.state.delete(STATE);
      this.ctx.logger.info({ webhook_id: this.ctx.id }, "webhook subscription was deleted: pending deliveries dropped");
      return;
    }
    let next = state;
    if (due.length > 0 && !(await this.deps.ownerActive(state.subscription.ownerKeyId))) {
      next = machine.disableForKey(state, now);
      this.ctx.logger.warn({ webhook_id: this.ctx.id }, "webhook subscription disabled: its key was deactivated");
    } else if (due.length > 0) {
      // Each attempt is stamped when it settles: its retry counts from its own answer, not the slowest one's.
      const sent = await Promise.all(
        due.map(async (d) => {
          const outcome = await this.deps.deliver(buildDeliveryRequest(state.subscription, d, now));
          return { deliveryId: d.deliveryId, outcome, sentAt: now, settledAt: this.deps.wall.now() };
        }),
      );
      const applied = machine.applyOutcomes(next, sent, this.deps.wall.now());
      next = applied.state;
      if (applied.disabled) {
        this.ctx.logger.warn({ webhook_id: this.ctx.id, reason: next.subscription.disabledReason }, "webhook subscription disabled");
      }
    }
    next = await tellOwner(this.ctx, this.deps, next);
    await commitState(this.ctx, this.deps, state, next);
  }
}

// Module functions, not methods: every method of an actor class is callable through the host
// (TypeScript's `private` is compile-time only), and these must not be.

/**
 * The actor's state, or on its first turn the subscription the route stored; null once the
 * subscription is deleted (a late bus delivery then changes nothing).
 */
async function loadState(ctx: ActorContext, deps: WebhookActorDeps): Promise<SubscriptionState | null> {
  const stored = await ctx.state.get(STATE, subscriptionStateSchema);
  if (stored !== undefined) {
    let subscription: WebhookSubscription;
    try {
      subscription = unsealSubscription(stored.subscription, deps.sealer);
    } catch (err) {
      // Counted and logged like the store's copy: a retry turn reads only this one, and failed
      // every time with no alert once the key that sealed it was dropped.
      deps.onUnsealFailure(ctx.id, err);
      throw err;
    }
    return { ...stored, subscription };
  }
  const subscription = await deps.repo.get(ctx.id);
  return subscription === null ? null : machine.initialState(subscription);
}

/**
 * Sends the owner's notice when it is due (in the turn that disabled the subscription, or a
 * later one on its schedule). At least once: a turn that fails after the mail went out sends it
 * again from the state it rolled back to.
 */
async function tellOwner(ctx: ActorContext, deps: WebhookActorDeps, state: SubscriptionState): Promise<SubscriptionState> {
  const notice = machine.noticeDue(state, deps.wall.now());
  if (notice === null) return state;
  let result: NoticeResult;
  try {
    result = await deps.noticeOwner(state.subscription, notice);
  } catch (err) {
    // The store did not answer (the mail server's own failures are a result): tried again on schedule.
    ctx.logger.warn({ err: errorSummary(err), webhook_id: ctx.id }, "webhook owner notice failed");
    result = "failed";
  }
  const next = machine.noticeTried(state, result, deps.wall.now());
  ctx.logger.info({ webhook_id: ctx.id, result, again_at: next.notice === null ? null : new Date(next.notice.dueAt).toISOString() }, "webhook owner notice tried");
  return next;
}

async function commitState(ctx: ActorContext, deps: WebhookActorDeps, before: SubscriptionState, after: SubscriptionState): Promise<void> {
  setState(ctx, deps, after);
  const added = addedRecords(before, after);
  // The store is a projection for the routes and the fan-out; the actor state is what the
  // schedule runs on. A failed projection write must not roll back a turn whose attempts were
  // already sent (the one-shot reminder would not fire again): it is logged and corrected by
  // the next change.
  try {
    if (after.subscription !== before.subscription) await deps.repo.save(after.subscription);
    await deps.repo.appendDeliveries(ctx.id, added, MAX_DELIVERY_RECORDS);
  } catch (err) {
    ctx.logger.error({ err, webhook_id: ctx.id }, "webhook store projection failed");
  }
}

/**
 * A change a caller asked for (PATCH, rotate-secret, a key deactivation): nothing was sent, so
 * the store's copy must take it or the turn fails and rolls back, and the caller sees an error
 * instead of a 200 for a change half made. Otherwise the fan-out (which reads the store) would
 * leave a re-enabled subscription without events, and `/v1/webhooks/test` would sign with the
 * old secret. The copy is written even when the change is a no-op, so repeating a request also
 * mends a store copy a delivery turn's failed write left behind.
 */
async function commitRequestedChange(ctx: ActorContext, deps: WebhookActorDeps, before: SubscriptionState, after: SubscriptionState): Promise<void> {
  setState(ctx, deps, after);
  await deps.repo.save(after.subscription);
  await deps.repo.appendDeliveries(ctx.id, addedRecords(before, after), MAX_DELIVERY_RECORDS);
}

/** The delivery records a turn added (the machine keeps the earlier ones as the same objects). */
function addedRecords(before: SubscriptionState, after: SubscriptionState): DeliveryRecord[] {
  return after.records.filter((r) => !before.records.includes(r));
}

function setState(ctx: ActorContext, deps: WebhookActorDeps, state: SubscriptionState): void {
  // The delivery log lives in the store; keeping it in the state too would rewrite 50
  // records with every turn.
  ctx.state.set(STATE, asJson({ ...sealedState(state, deps.sealer), records: [] }));
  armReminder(ctx, state);
}

/** One wall-clock reminder at the earliest due attempt or owner's notice; none when idle. */
function armReminder(ctx: ActorContext, state: SubscriptionState): void {
  const dueAt = machine.nextWakeAt(state);
  if (dueAt === null) ctx.reminders.delete(REMINDER);
  else ctx.reminders.set(REMINDER, { clock: "wall", dueAt });
}
