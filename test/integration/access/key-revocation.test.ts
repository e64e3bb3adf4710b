import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { marketDataCapability } from "../../../src/composition/capabilities/market-data.js";
import { webhooksCapability } from "../../../src/composition/capabilities/webhooks.js";
import { hashApiKey } from "../../../src/domain/access/api-key.js";
import { ManualClock } from "../../../src/runtime/clocks/clock.js";
import { createKey, startService, type RunningService } from "../../support/service.js";

/**
 * Revoking and rotating a key over HTTP (audit 2026-11-26, findings 1 and 2): a revoke that
 * deactivated nothing says so and leaves the lineage's webhooks alone, and neither a spent daily
 * quota nor a full minute keeps the holder from revoking or rotating.
 */

let svc: RunningService;
// Mid-morning UTC: no day ends during the suite; minutes pass only when a test says so.
const clock = new ManualClock(Date.UTC(2026, 10, 26, 9, 0, 0));

interface Answer {
  readonly status: number;
  readonly headers: Headers;
  readonly body: Record<string, unknown>;
}

async function call(method: string, path: string, key: string, body?: unknown): Promise<Answer> {
  const res = await fetch(svc.url + path, {
    method,
    headers: { "x-api-key": key, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, unknown> };
}

async function usageOf(key: string): Promise<string> {
  const record = await svc.service.store.apiKeys.findByHash(hashApiKey(key));
  if (!record) throw new Error("no such key");
  return record.usageId;
}

beforeAll(async () => {
  svc = await startService(
    { WEBHOOK_ALLOW_PRIVATE_TARGETS: "true", QUOTA_BASIC_PER_DAY: "3", RATE_LIMIT_BASIC_PER_MINUTE: "2" },
    { wallClock: clock, capabilities: [marketDataCapability, webhooksCapability] },
  );
});

afterAll(async () => {
  await svc.stop();
});

describe("DELETE /v1/keys/current after a rotation it did not see", () => {
  it("answers 401 key_inactive and leaves the rotated key and the lineage's webhooks working", async () => {
    const old = await createKey(svc, "pro");
    const registered = await call("POST", "/v1/webhooks", old, { url: "https://127.0.0.1:9/hook", events: ["ghost.signal"] });
    expect(registered.status).toBe(201);
    // This process's verifier now holds the key for 2 s; another replica rotates it meanwhile.
    expect((await call("GET", "/v1/webhooks", old)).status).toBe(200);
    const record = await svc.service.store.apiKeys.findByHash(hashApiKey(old));
    const rotated = await svc.service.deps.keyIssuer.rotate(old, record ?? expect.fail("no record"));
    const fresh = rotated?.apiKey ?? expect.fail("rotation refused");

    const revoke = await call("DELETE", "/v1/keys/current", old);
    expect(revoke.status).toBe(401);
    expect(revoke.body).toEqual({ detail: { error: "key_inactive", message: expect.any(String) } });
    const listed = await call("GET", "/v1/webhooks", fresh);
    expect(listed.status).toBe(200);
    expect(listed.body).toMatchObject({ count: 1, webhooks: [{ id: registered.body.id, is_active: true, disabled_reason: null }] });
  });

  it("a deactivation announced while the lineage still has an active key disables none of its webhooks", async () => {
    const key = await createKey(svc, "pro");
    const registered = await call("POST", "/v1/webhooks", key, { url: "https://127.0.0.1:9/hook", events: ["ghost.signal"] });
    expect(registered.status).toBe(201);
    // What a revoke racing a rotation announced before the route checked the store's answer.
    await svc.service.deps.keyLifecycle.deactivated(await usageOf(key));
    expect(await svc.service.store.webhooks.get(String(registered.body.id))).toMatchObject({ isActive: true, disabledReason: null });

    expect((await call("DELETE", "/v1/keys/current", key)).status).toBe(200);
    expect(await svc.service.store.webhooks.get(String(registered.body.id))).toMatchObject({ isActive: false, disabledReason: "key_deactivated" });
  });
});

describe("revoking and rotating a key whose quota or minute is spent", () => {
  /** A Basic key whose 3 calls of the day are spent (2 a minute, so over two minutes). */
  async function spentKey(): Promise<string> {
    const key = await createKey(svc, "basic");
    for (let i = 0; i < 2; i++) expect((await call("GET", "/v1/webhooks", key)).status).toBe(200);
    clock.advance(60_000);
    expect((await call("GET", "/v1/webhooks", key)).status).toBe(200);
    expect((await call("GET", "/v1/webhooks", key)).body).toMatchObject({ detail: { error: "daily_limit_exceeded" } });
    return key;
  }

  it("revokes after the daily quota is spent", async () => {
    const key = await spentKey();
    const revoke = await call("DELETE", "/v1/keys/current", key);
    expect(revoke.status).toBe(200);
    expect(revoke.body).toEqual({ deactivated: true });
    expect(revoke.headers.get("x-ratelimit-remaining")).toBe("0");
    expect((await call("GET", "/v1/webhooks", key)).body).toMatchObject({ detail: { error: "key_inactive" } });
  });

  it("rotates after the daily quota is spent, and the new key inherits the spent quota", async () => {
    const key = await spentKey();
    const rotated = await call("POST", "/v1/keys/rotate", key);
    expect(rotated.status).toBe(201);
    const fresh = String(rotated.body.api_key);
    expect((await call("GET", "/v1/webhooks", fresh)).body).toMatchObject({ detail: { error: "daily_limit_exceeded", calls_today: 3, limit: 3 } });
  });

  it("rotates and revokes inside a full minute window, and the rotation counts as a call of the day", async () => {
    clock.advance(60_000);
    const key = await createKey(svc, "basic");
    for (let i = 0; i < 2; i++) expect((await call("GET", "/v1/webhooks", key)).status).toBe(200);
    expect((await call("GET", "/v1/webhooks", key)).body).toMatchObject({ detail: { error: "rate_limit_exceeded", window_seconds: 60 } });

    const rotated = await call("POST", "/v1/keys/rotate", key);
    expect(rotated.status).toBe(201);
    expect(rotated.headers.get("x-ratelimit-remaining")).toBe("0");
    const revoke = await call("DELETE", "/v1/keys/current", String(rotated.body.api_key));
    expect(revoke.status).toBe(200);
    expect(revoke.body).toEqual({ deactivated: true });
  });

  it("bounds rotations to 5 per lineage in an hour with rate_limit_exceeded, and the refused one counts nowhere", async () => {
    let key = await createKey(svc, "pro");
    for (let i = 0; i < 5; i++) {
      const rotated = await call("POST", "/v1/keys/rotate", key);
      expect(rotated.status).toBe(201);
      key = String(rotated.body.api_key);
    }
    const refused = await call("POST", "/v1/keys/rotate", key);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ detail: { error: "rate_limit_exceeded", message: expect.any(String), limit: 5, window_seconds: 3600, retry_after_seconds: expect.any(Number) } });
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(refused.headers.get("x-ratelimit-remaining")).toBe(String(10_000 - 5));
    // The key the refused rotation presented still works, and revoking it is not a rotation.
    expect((await call("DELETE", "/v1/keys/current", key)).status).toBe(200);
  });
});
