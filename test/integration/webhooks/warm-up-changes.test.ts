import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../../src/config/env.js";
import { buildService, type Service } from "../../../src/composition/build-service.js";
import { freshStoreUrl } from "../../support/service.js";
import { sharedReplayFeed } from "../../support/replay-feed.js";
import { warmUpHold } from "../../support/warm-up-hold.js";
import { marketDataCapability } from "../../../src/composition/capabilities/market-data.js";
import { webhooksCapability } from "../../../src/composition/capabilities/webhooks.js";

const hold = warmUpHold();

/**
 * Changes to a webhook go through its actor. During a Dapr warm-up the actors run on the
 * founder's in-process host and are written over Dapr's copies at its end, so a pause, rotation
 * or delete made meanwhile would be undone; the API refuses them on every host until the warm-up
 * is over, and says so. Registering and reading are unaffected.
 */
describe("webhook changes while market time warms up", () => {
  let service: Service;
  let url: string;
  let key: string;

  beforeAll(async () => {
    const config = loadConfig({ STORE_URL: freshStoreUrl("sqlite", "warm-webhooks"), LOG_LEVEL: "silent", REPLAY_WARMUP_DAYS: "14", WEBHOOK_ALLOW_PRIVATE_TARGETS: "true", PORT: "0", HOST: "127.0.0.1" });
    service = await buildService(config, { feed: await sharedReplayFeed(), capabilities: [marketDataCapability, webhooksCapability, hold.capability] });
    key = (await service.deps.keyIssuer.create("basic", "warm-webhooks", null)).apiKey;
    url = `http://127.0.0.1:${await service.listen()}`;
  }, 60_000);
  afterAll(async () => {
    hold.release();
    await service.stop();
  });

  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${url}${path}`, {
      method,
      headers: { "x-api-key": key, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };

  let id = "";

  it("registers, then answers 503 warming_up to a pause, a rotation and a delete, changing nothing", async () => {
    expect(service.deps.marketClock.warmingUp).toBe(true);
    const created = await call("POST", "/v1/webhooks", { url: "https://127.0.0.1:9/hook", events: ["regime.change"] });
    expect(created.status).toBe(201);
    id = String(created.body.id);
    const secret = created.body.secret;

    for (const [method, path, body] of [
      ["PATCH", `/v1/webhooks/${id}`, { is_active: false }],
      ["POST", `/v1/webhooks/${id}/rotate-secret`, undefined],
      ["DELETE", `/v1/webhooks/${id}`, undefined],
    ] as const) {
      const res = await call(method, path, body);
      expect(res.status, `${method} ${path}`).toBe(503);
      expect(res.body.detail).toMatchObject({ error: "warming_up" });
      expect(String((res.body.detail as { message: string }).message)).toMatch(/warming up/);
    }
    // The warm-up is held at its first step: the answers above fell in it.
    expect(service.deps.marketClock.warmingUp).toBe(true);
    const listed = await call("GET", "/v1/webhooks");
    expect(listed.body).toMatchObject({ count: 1, webhooks: [{ id, is_active: true }] });
    expect((await service.deps.store.webhooks.get(id))?.secret).toBe(secret);
  }, 60_000);

  it("accepts each of them once the warm-up is over", async () => {
    hold.release();
    await service.warmedUp;
    expect((await call("PATCH", `/v1/webhooks/${id}`, { is_active: false })).body).toMatchObject({ id, is_active: false });
    const rotated = await call("POST", `/v1/webhooks/${id}/rotate-secret`);
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect((await call("DELETE", `/v1/webhooks/${id}`)).body).toEqual({ id, deleted: true });
  }, 120_000);
});
