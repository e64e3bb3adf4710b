/**
 * What one delivery attempt came to. The adapter classifies transport results into these; the
 * state machine only reads them, so it never needs to know about HTTP clients.
 */
export const DELIVERY_ERRORS = [
  "http_status",
  "redirect",
  "timeout",
  "connection_refused",
  "target_refused",
  "dns_failure",
  "tls_error",
  "network_error",
] as const;
export type DeliveryError = (typeof DELIVERY_ERRORS)[number];

export type DeliveryOutcome =
  | { readonly kind: "success"; readonly statusCode: number; readonly durationMs: number }
  | {
      readonly kind: "failure";
      /** null when no response arrived (timeout, refused, DNS, TLS, SSRF refusal). */
      readonly statusCode: number | null;
      readonly error: DeliveryError;
      readonly durationMs: number;
    };

/**
 * Success is any 2xx (DECISIONS 5). 3xx is a failure because redirects are never followed:
 * following one could aim the request at an address the SSRF check never saw.
 */
export function outcomeForStatus(statusCode: number, durationMs: number): DeliveryOutcome {
  if (statusCode >= 200 && statusCode < 300) return { kind: "success", statusCode, durationMs };
  const error: DeliveryError = statusCode >= 300 && statusCode < 400 ? "redirect" : "http_status";
  return { kind: "failure", statusCode, error, durationMs };
}

/** 410 Gone: the receiver asks us to stop, so the subscription is disabled at once (DECISIONS 5). */
export function isGone(outcome: DeliveryOutcome): boolean {
  return outcome.kind === "failure" && outcome.statusCode === 410;
}
