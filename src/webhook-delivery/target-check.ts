import { isIP } from "node:net";
import { judgeAddress } from "./address-policy.js";
import { systemResolve, type ResolveAll } from "./resolver.js";

export type { ResolveAll } from "./resolver.js";

export type TargetCheck =
  | { readonly ok: true }
  | { readonly ok: false; readonly reason: "invalid_url" | "https_required" | "unresolvable" | "forbidden_address" };

export interface TargetCheckOptions {
  /** WEBHOOK_ALLOW_PRIVATE_TARGETS: tests only. */
  readonly allowPrivateTargets: boolean;
  /** The resolver deliveries use too (WEBHOOK_DNS_SERVERS or the system's). */
  readonly resolve?: ResolveAll;
}

/**
 * Registration-time check of a subscription URL (DECISIONS 5): https only, and every address
 * the name resolves to must pass the address policy. Passing here is not enough — DNS can
 * change — so the delivery agent applies the same policy again on every connection.
 */
export async function checkWebhookTarget(rawUrl: string, options: TargetCheckOptions): Promise<TargetCheck> {
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    return { ok: false, reason: "invalid_url" };
  }
  if (url.protocol !== "https:") return { ok: false, reason: "https_required" };
  if (url.username !== "" || url.password !== "") return { ok: false, reason: "invalid_url" };

  const host = url.hostname.replace(/^\[|\]$/g, "");
  let addresses: readonly string[];
  if (isIP(host) !== 0) {
    addresses = [host];
  } else if (options.allowPrivateTargets) {
    return { ok: true }; // tests name their receivers freely; the delivery agent still refuses metadata
  } else {
    try {
      addresses = await (options.resolve ?? systemResolve)(host);
    } catch {
      return { ok: false, reason: "unresolvable" };
    }
  }
  if (addresses.length === 0) return { ok: false, reason: "unresolvable" };
  const policy = { allowPrivateTargets: options.allowPrivateTargets };
  return addresses.every((a) => judgeAddress(a, policy).allowed) ? { ok: true } : { ok: false, reason: "forbidden_address" };
}
