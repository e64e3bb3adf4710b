import { randomUUID } from "node:crypto";
import { createServer, type Server } from "node:net";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildService } from "../../../src/composition/build-service.js";
import { marketDataCapability } from "../../../src/composition/capabilities/market-data.js";
import { createWebhooksCapability } from "../../../src/composition/capabilities/webhooks.js";
import { loadConfig } from "../../../src/config/env.js";
import type { Clock } from "../../../src/runtime/clocks/clock.js";
import { createKey, freshStoreUrl, startService } from "../../support/service.js";
import { sharedReplayFeed } from "../../support/replay-feed.js";
import { waitFor } from "../../support/wait-for.js";
import { startHttpsReceiver, type HttpsReceiver } from "../webhooks/support/receiver.js";
import { createTestPki, type TestPki } from "../webhooks/support/tls.js";

/** Wall time the test moves forward, so a 5 s retry is due without waiting for it. */
class OffsetClock implements Clock {
  offset = 0;
  now(): number {
    return Date.now() + this.offset;
  }
}

/** Every row of every table: what "the store is untouched" is compared on. */
function dump(path: string): Record<string, unknown[]> {
  const db = new Database(path, { readonly: true });
  try {
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as { name: string }[];
    return Object.fromEntries(tables.map(({ name }) => [name, db.prepare(`SELECT * FROM "${name}"`).all()]));
  } finally {
    db.close();
  }
}

let pki: TestPki;
let receiver: HttpsReceiver;
let blocker: Server;
let takenPort: number;

beforeAll(async () => {
  pki = createTestPki();
  receiver = await startHttpsReceiver(pki);
  blocker = createServer();
  await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", resolve));
  takenPort = (blocker.address() as { port: number }).port;
});

afterAll(async () => {
  await receiver.stop();
  await new Promise<void>((resolve) => blocker.close(() => resolve()));
});

describe("an instance that cannot bind its port (item 7)", () => {
  it("fails before it acts on the shared store: a due webhook retry is neither sent nor recorded", async () => {
    const storeUrl = freshStoreUrl("sqlite", "failed-bind");
    const clock = new OffsetClock();
    const env = { WEBHOOK_ALLOW_PRIVATE_TARGETS: "true", STORE_URL: storeUrl };
    const capabilities = () => [marketDataCapability, createWebhooksCapability({ ca: pki.ca })];

    // A first instance leaves a failed delivery with a retry scheduled 5 s later.
    receiver.respond = (_req, index) => ({ status: index === 0 ? 500 : 200 });
    const first = await startService(env, { wallClock: clock, capabilities: capabilities() });
    const key = await createKey(first, "basic");
    const created = await fetch(`${first.url}/v1/webhooks`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": key },
      body: JSON.stringify({ url: receiver.url("/bind"), events: ["ghost.signal"] }),
    });
    expect(created.status).toBe(201);
    const event = { id: randomUUID(), event: "ghost.signal", timestamp: new Date().toISOString(), data: { asset: "BTC", action: "ENTRY" } };
    await first.service.deps.bus.publish("ghost.signal", event);
    await waitFor(async () => receiver.received.length === 1, 10_000, "the first attempt");
    const { id } = (await created.json()) as { id: string };
    await waitFor(async () => (await first.service.store.webhooks.deliveries(id, 10)).length === 1, 10_000, "the attempt to be recorded");
    await first.stop();

    // The retry is now due. An instance whose port is taken must not send it, nor write anything.
    clock.offset += 60_000;
    const path = storeUrl.slice("sqlite:".length);
    const before = dump(path);
    const config = loadConfig({ ...env, LOG_LEVEL: "silent", REPLAY_WARMUP_DAYS: "0", PORT: String(takenPort), HOST: "127.0.0.1" });
    const doomed = await buildService(config, { feed: await sharedReplayFeed(), wallClock: clock, capabilities: capabilities() });
    await expect(doomed.listen()).rejects.toThrow(/EADDRINUSE/);
    await doomed.stop();
    expect(receiver.received).toHaveLength(1);
    expect(dump(path)).toEqual(before);

    // The same store on a free port sends the due retry: the refusal above was the failed bind's.
    const third = await startService(env, { wallClock: clock, capabilities: capabilities() });
    try {
      await waitFor(async () => receiver.received.length === 2, 10_000, "the retry from a healthy instance");
    } finally {
      await third.stop();
    }
  });
});
