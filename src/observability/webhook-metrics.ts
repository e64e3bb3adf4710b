import type { Deliver } from "../webhook-delivery/http-deliverer.js";
import type { NoticeResult } from "../domain/webhooks/owner-notice.js";
import { SecretUnsealError } from "../sealing/secret-sealer.js";
import { processCounter, processHistogram } from "./metrics.js";

/** Created once per process: every service in it shares the collectors. */
const attempts = processCounter({
  name: "mis_webhook_deliveries_total",
  help: "Webhook delivery attempts sent from this process (test sends included), by outcome: delivered, or the failure (http_status, redirect, timeout, connection_refused, target_refused, dns_failure, tls_error, network_error)",
  labelNames: ["outcome"],
});
const seconds = processHistogram({
  name: "mis_webhook_delivery_duration_seconds",
  help: "Time from sending a webhook delivery attempt to its answer or failure (the 10 s limit included)",
  labelNames: [],
  buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 15],
});

/** The same deliverer, each attempt counted by outcome: the deliveries endpoint answers per subscription, this for the whole replica. */
export function countingDeliveries(deliver: Deliver): Deliver {
  return async (request) => {
    const outcome = await deliver(request);
    attempts.labels(outcome.kind === "success" ? "delivered" : outcome.error).inc();
    seconds.observe(outcome.durationMs / 1000);
    return outcome;
  };
}

const unopened = processCounter({
  name: "mis_webhook_secret_unseal_failures_total",
  help: "Reads of a webhook subscription whose sealed secret did not open, by reason: unknown_key (WEBHOOK_SECRET_KEYS no longer names its key), not_authentic (altered, or another subscription's), malformed; such a subscription signs nothing",
  labelNames: ["reason"],
});

/** Counts a secret that did not open, so an alert can fire before subscribers notice the silence. */
export function countUnsealFailure(err: unknown): void {
  unopened.labels(err instanceof SecretUnsealError ? err.reason : "other").inc();
}

const notices = processCounter({
  name: "mis_webhook_owner_notices_total",
  help: "Tries at e-mailing a key's owner that delivery results disabled their webhook subscription, by result: sent, held_back (the send limits), failed (the mail server; tried again), no_address (nobody to tell), error (the store did not answer; tried again)",
  labelNames: ["result"],
});

/** The same notifier, each try counted by result: a mail server that stops taking notices shows here before any owner asks. */
export function countingNotices<A extends unknown[]>(notify: (...args: A) => Promise<NoticeResult>): (...args: A) => Promise<NoticeResult> {
  return async (...args) => {
    try {
      const result = await notify(...args);
      notices.labels(result).inc();
      return result;
    } catch (err) {
      notices.labels("error").inc();
      throw err;
    }
  };
}
