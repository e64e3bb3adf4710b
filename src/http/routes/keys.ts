import { defineRoute, type Route } from "../route.js";
import { currentKeySchema, deactivatedSchema, generateKeyBody, issuedKeySchema } from "../schemas/keys.js";
import type { AppDeps } from "../app-deps.js";
import type { IssuedKey } from "../../application/key-issuer.js";
import { ApiError } from "../error-codes.js";

/** Rotations per key lineage: the quota no longer bounds them (it does not refuse a rotation). */
const ROTATION_LIMIT = { name: "key-rotation", limit: 5, windowSeconds: 3600 } as const;

/**
 * Looking a key up never spends the quota's refusal (a holder whose calls ran out must still see
 * when they come back), so it is bounded on its own instead of by the tier's minute.
 */
const KEY_STATUS_LIMIT = { name: "key-status", limit: 30, windowSeconds: 60 } as const;

const KEY_SHOWN_ONCE = "Store this key now: it is shown once and cannot be recovered.";

export function keyRoutes(deps: AppDeps): Route[] {
  const issuedBody = (issued: IssuedKey) => ({
    api_key: issued.apiKey,
    key_prefix: issued.record.prefix,
    tier: issued.record.tier,
    daily_limit: deps.tierLimits[issued.record.tier].dailyQuota,
    name: issued.record.name,
    email: issued.record.email,
    created_at: issued.record.createdAt,
    message: KEY_SHOWN_ONCE,
  });
  return [
    defineRoute({
      method: "post",
      path: "/v1/keys/generate",
      summary: "Generate a free API key (5 per client IP in any hour)",
      tags: ["keys"],
      // A sliding hour: a fixed clock hour let 10 generations through in the minutes around its end.
      access: { kind: "public", ipLimit: { name: "keygen", limit: 5, windowSeconds: 3600, sliding: true, refusal: "rate_limit_exceeded", counts: "valid-requests" } },
      body: generateKeyBody,
      response: issuedKeySchema,
      successStatus: 201,
      errors: ["validation_failed", "rate_limit_exceeded"],
      handler: async ({ body }) => issuedBody(await deps.keyIssuer.create("free", body.name, body.email)),
    }),
    defineRoute({
      method: "post",
      path: "/v1/keys/rotate",
      summary: "Replace the calling key with a new key of the same tier; the old key stops working at once here and within 2 s on other replicas (5 per key lineage in a clock hour)",
      tags: ["keys"],
      // A spent quota or minute must not keep the holder from replacing a leaked key, and
      // rotating resets no count (quotas follow the lineage), so neither refuses it; rotations
      // are bounded by their own limit instead (docs/decisions.md).
      access: { kind: "key", tier: "free", quota: "count-only", limits: [ROTATION_LIMIT] },
      response: issuedKeySchema,
      successStatus: 201,
      handler: async ({ caller }) => {
        // Nothing follows the rotation: quotas and webhooks belong to the key's lineage, so once
        // the store has swapped the keys there is no second step that could fail and leave the
        // caller with a dead key and no new one.
        const issued = await deps.keyIssuer.rotate(caller.presented, caller.key);
        deps.keyVerifier.forget(caller.presented);
        if (!issued) throw new ApiError("key_inactive");
        return issuedBody(issued);
      },
    }),
    defineRoute({
      method: "get",
      path: "/v1/keys/current",
      summary: "The calling key: its tier and how much of today's quota is left (30 a minute)",
      description:
        "Counts as a call, as every keyed request does, but a spent quota or minute does not refuse it. The e-mail address given at generation is not shown: whoever holds a leaked key would learn its owner's address.",
      tags: ["keys"],
      access: { kind: "key", tier: "free", quota: "count-only", limits: [KEY_STATUS_LIMIT] },
      response: currentKeySchema,
      handler: async ({ caller }) => {
        const { key, quota } = caller;
        return {
          key_prefix: key.prefix,
          tier: key.tier,
          name: key.name,
          created_at: key.createdAt,
          daily_limit: quota.limit,
          calls_today: quota.limit - quota.remaining,
          remaining_today: quota.remaining,
          resets_at: new Date(quota.resetEpochSeconds * 1000).toISOString(),
          per_minute_limit: deps.tierLimits[key.tier].perMinute,
        };
      },
    }),
    defineRoute({
      method: "delete",
      path: "/v1/keys/current",
      summary: "Deactivate the calling key",
      tags: ["keys"],
      // Revoking must work at once (DECISIONS 3), also after someone spent the key's quota; it
      // still counts as a call (DECISIONS 2), where the windows have room.
      access: { kind: "key", tier: "free", quota: "count-only" },
      response: deactivatedSchema,
      handler: async ({ caller }) => {
        const deactivated = await deps.store.apiKeys.deactivate(caller.key.hash, new Date(deps.wallClock.now()).toISOString());
        deps.keyVerifier.forget(caller.presented);
        // The key passed authentication yet was no longer active: a rotation got there first (in
        // this process, or on a replica whose verifier cache still held the key). Its lineage
        // lives on through the rotated key, so the caller must not be told it is revoked, and its
        // webhooks must not stop.
        if (!deactivated) throw new ApiError("key_inactive");
        await deps.keyLifecycle.deactivated(caller.key.usageId);
        return { deactivated: true as const };
      },
    }),
  ];
}
