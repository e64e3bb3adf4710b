import { lookup as dnsLookup } from "node:dns/promises";
import { isIP } from "node:net";
import { isForbiddenAddress } from "./address-policy.js";

export type ResolveAll = (hostname: string) => Promise<readonly string[]>;

const systemResolve: ResolveAll = async (hostname) =>
  (await dnsLookup(hostname, { all: true, verbatim: true })).map((entry) => entry.address);

export type TargetCheck =
  | { readonly ok: true }
  | { readonly ok: false; readonly reason: "invalid_url" | "https_required" | "unresolvable" | "forbidden_address" };

export interface TargetCheckOptions {
  /** WEBHOOK_ALLOW_PRIVATE_TARGETS: tests only. */
  readonly allowPrivateTargets: boolean;
  readonly resolve?: ResolveAll;
}

/**
 * Registration-time check of a subscription URL (DECISIONS 5): https only, and every address
 * the name resolves to must be public. Passing here is not enough — DNS can change — so the
 * delivery agent checks again on every connection.
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
  if (options.allowPrivateTargets) return { ok: true };

  const host = url.hostname.replace(/^\[|\]$/g, "");
  let addresses: readonly string[];
  if (isIP(host) !== 0) {
    addresses = [host];
  } else {
    try {
      addresses = await (options.resolve ?? systemResolve)(host);
    } catch {
      return { ok: false, reason: "unresolvable" };
    }
  }
  if (addresses.length === 0) return { ok: false, reason: "unresolvable" };
  return addresses.some(isForbiddenAddress) ? { ok: false, reason: "forbidden_address" } : { ok: true };
}
