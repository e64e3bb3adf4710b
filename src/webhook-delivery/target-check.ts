import { isIP } from "node:net";
import { judgeAddress } from "./address-policy.js";
import { systemDnsResolve, type ResolveAll } from "./resolver.js";

export type { ResolveAll } from "./resolver.js";

export type TargetCheck =
  | { readonly ok: true }
  | { readonly ok: false; readonly reason: "invalid_url" | "https_required" | "host_not_public" | "forbidden_address" };

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
      addresses = await (options.resolve ?? systemDnsResolve)(host);
    } catch {
      addresses = [];
    }
  }
  const policy = { allowPrivateTargets: options.allowPrivateTargets };
  if (addresses.length > 0 && addresses.every((a) => judgeAddress(a, policy).allowed)) return { ok: true };
  // A name that does not resolve and one that resolves to a private address get one answer:
  // two would tell any key holder which internal names exist where the service runs.
  return { ok: false, reason: isIP(host) !== 0 ? "forbidden_address" : "host_not_public" };
}
