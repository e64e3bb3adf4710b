import { buildDeliveryRequest } from "../../../../src/domain/webhooks/delivery-request.js";
import { applyOutcomes, dueDeliveries, type SubscriptionState } from "../../../../src/domain/webhooks/delivery-state.js";
import type { DeliveryOutcome } from "../../../../src/domain/webhooks/outcome.js";
import type { Deliver } from "../../../../src/webhook-delivery/http-deliverer.js";

/**
 * What a WebhookSubscriptionActor's reminder turn does: send every due delivery, then fold the
 * outcomes into the state. Kept in the tests until the actor exists.
 */
export async function runDue(
  state: SubscriptionState,
  deliver: Deliver,
  now: number,
): Promise<{ state: SubscriptionState; outcomes: DeliveryOutcome[] }> {
  const due = dueDeliveries(state, now);
  const outcomes = await Promise.all(due.map((d) => deliver(buildDeliveryRequest(state.subscription, d, now))));
  const sent = due.flatMap((d, i) => {
    const outcome = outcomes[i];
    return outcome === undefined ? [] : [{ deliveryId: d.deliveryId, outcome, sentAt: now, settledAt: now }];
  });
  return { state: applyOutcomes(state, sent, now).state, outcomes };
}
