import type { DeliveryError } from "../domain/webhooks/outcome.js";

const TLS_CODES = new Set([
  "DEPTH_ZERO_SELF_SIGNED_CERT",
  "SELF_SIGNED_CERT_IN_CHAIN",
  "UNABLE_TO_VERIFY_LEAF_SIGNATURE",
  "UNABLE_TO_GET_ISSUER_CERT",
  "UNABLE_TO_GET_ISSUER_CERT_LOCALLY",
  "CERT_HAS_EXPIRED",
  "ERR_TLS_CERT_ALTNAME_INVALID",
]);

function field(error: unknown, name: string): string | undefined {
  if (typeof error !== "object" || error === null) return undefined;
  const value: unknown = Reflect.get(error, name);
  return typeof value === "string" ? value : undefined;
}

/** Maps a transport error (node-fetch, node:net, TLS, the SSRF filter) to a delivery error. */
export function classifyDeliveryError(error: unknown): DeliveryError {
  if (field(error, "name") === "AbortError") return "timeout";
  const code = field(error, "code") ?? "";
  if (code === "ERR_WEBHOOK_TARGET_REFUSED") return "target_refused";
  if (code === "ECONNREFUSED") return "connection_refused";
  if (code === "ENOTFOUND" || code === "EAI_AGAIN") return "dns_failure";
  if (code === "ETIMEDOUT") return "timeout";
  if (TLS_CODES.has(code) || code.startsWith("CERT_") || code.startsWith("ERR_TLS") || code.startsWith("ERR_SSL")) {
    return "tls_error";
  }
  return "network_error";
}
