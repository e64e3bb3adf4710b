import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ERASURE_SETTLE_MS, eraseAddress } from "../../../src/application/personal-data-erasure.js";
import { KeyIssuer } from "../../../src/application/key-issuer.js";
import { wallClock } from "../../../src/runtime/clocks/clock.js";
import { openStore } from "../../../src/store/open-store.js";
import { runCli } from "../../support/cli.js";
import { sealKey, storeDump } from "../../support/store-dump.js";
import { freshStoreUrl, startService, type RunningService, type StoreKind } from "../../support/service.js";
import { startSmtp, type RunningSmtp } from "../../support/smtp.js";

/**
 * An erasure request: the operator runs `privacy erase <address>` and the service no longer
 * stores the person's subscription, nor the name and address their API keys were generated with,
 * while the keys keep working and everyone else's data stays.
 */
describe.each<StoreKind>(["sqlite", "mongodb"])("erasing an address on %s", (kind) => {
  it("clears a successor that a rotation racing with the erasure wrote from a cached record", async () => {
    const store = await openStore(freshStoreUrl(kind, "erase-race"));
    try {
      const issuer = new KeyIssuer(store.apiKeys, wallClock);
      const issued = await issuer.create("basic", "Gina Racer", "Gina@example.org");
      // What a replica's key verifier still holds after the erasure's first pass.
      const cached = issued.record;
      const pauses: number[] = [];
      const erased = await eraseAddress(store, "gina@example.org", async (ms) => {
        pauses.push(ms);
        if (pauses.length === 1) await issuer.rotate(issued.apiKey, cached);
      });
      expect(erased).toEqual({ subscriberRemoved: false, lineages: [issued.record.usageId], keysCleared: 2, settled: true });
      expect(pauses).toEqual([ERASURE_SETTLE_MS, ERASURE_SETTLE_MS]);
      // Both keys may carry the same millisecond, so the store's order between them is the ids'.
      const keys = (await store.apiKeys.list()).sort((a, b) => Number(a.active) - Number(b.active));
      expect(keys.map((k) => [k.active, k.name, k.email])).toEqual([
        [false, null, null],
        [true, null, null],
      ]);
    } finally {
      await store.close();
    }
  });

  it("says it did not settle when rotations keep writing the owner back", async () => {
    const store = await openStore(freshStoreUrl(kind, "erase-unsettled"));
    try {
      const issuer = new KeyIssuer(store.apiKeys, wallClock);
      let current = await issuer.create("free", "Hal Busy", "hal@example.org");
      const cached = current.record;
      const erased = await eraseAddress(store, "hal@example.org", async () => {
        const next = await issuer.rotate(current.apiKey, cached);
        if (next !== null) current = next;
      });
      expect(erased.settled).toBe(false);
      expect(erased.keysCleared).toBe(5);
    } finally {
      await store.close();
    }
  });
});

describe.each<[StoreKind, boolean]>([
  ["sqlite", false],
  ["sqlite", true],
  ["mongodb", false],
  ["mongodb", true],
])("privacy erase on %s (personal data sealed: %s)", (kind, sealed) => {
  let smtp: RunningSmtp;
  let svc: RunningService | undefined;
  const keyEnv: Record<string, string> = sealed ? { PERSONAL_DATA_KEYS: sealKey("k1") } : {};

  beforeAll(async () => {
    smtp = await startSmtp();
  });
  afterAll(async () => {
    await svc?.stop();
    await smtp.stop();
  });

  const post = (path: string, body: unknown, ip: string, apiKey?: string) =>
    fetch(`${svc?.url}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-forwarded-for": ip, ...(apiKey === undefined ? {} : { "x-api-key": apiKey }) },
      body: JSON.stringify(body),
    });
  const generate = async (body: unknown, ip: string) => {
    const res = await post("/v1/keys/generate", body, ip);
    expect(res.status).toBe(201);
    return ((await res.json()) as { api_key: string }).api_key;
  };

  it("forgets the subscription and the keys' owner, keeps the keys working and everyone else's data", async () => {
    const storeUrl = freshStoreUrl(kind, "privacy-erase");
    const env = { STORE_URL: storeUrl, ...keyEnv };
    svc = await startService({ ...env, SMTP_URL: smtp.url, MAIL_FROM: "hello@market-intel.test", TRUST_PROXY: "1" }, { newsletter: { retryDelaysMs: [] }, capabilities: [] });
    expect((await post("/v1/newsletter/subscribe", { email: "erin.erase@example.org", name: "Erin Erasable" }, "198.51.100.21")).status).toBe(200);
    expect((await post("/v1/newsletter/subscribe", { email: "frank.stays@example.org", name: "Frank Stays" }, "198.51.100.22")).status).toBe(200);
    await svc.service.deps.newsletter.drain();
    // Typed with capitals at generation; the request comes in lower case.
    const erinFirst = await generate({ name: "Erin Keyname", email: "Erin.Erase@Example.org" }, "198.51.100.23");
    const rotated = await post("/v1/keys/rotate", {}, "198.51.100.23", erinFirst);
    expect(rotated.status).toBe(201);
    const erinKey = ((await rotated.json()) as { api_key: string }).api_key;
    await generate({ name: "Frank Keyname", email: "frank.stays@example.org" }, "198.51.100.24");
    const listed = JSON.parse((await runCli(["keys", "list"], env)).stdout) as Array<{ name: string | null; lineage: string }>;
    const erinLineage = listed.find((k) => k.name === "Erin Keyname")?.lineage;

    // While the service runs, as an operator answers a request written in a reply.
    const erase = await runCli(["privacy", "erase", "  ERIN.erase@example.org "], env);
    expect([erase.code, JSON.parse(erase.stdout)], erase.stderr).toEqual([
      0,
      { subscriber_removed: true, key_lineages: [erinLineage], keys_cleared: 2, settled: true },
    ]);
    expect(erase.stderr).toContain("keys deactivate --lineage");

    // The key still works, without an owner (the CLI outlasts the verifier's cache).
    const current = await fetch(`${svc.url}/v1/keys/current`, { headers: { "x-api-key": erinKey } });
    expect(current.status).toBe(200);
    expect(((await current.json()) as { name: string | null }).name).toBeNull();
    const after = JSON.parse((await runCli(["keys", "list"], env)).stdout) as Array<{ name: string | null; lineage: string; active: boolean }>;
    expect(after.map((k) => [k.lineage === erinLineage, k.name, k.active])).toEqual([
      [true, null, false],
      [true, null, true],
      [false, "Frank Keyname", true],
    ]);

    // What the store holds, read without the service's keys: nothing of Erin, Frank's rows intact.
    const raw = await openStore(storeUrl);
    try {
      const rows = await raw.apiKeys.list();
      expect(rows.filter((k) => k.usageId === erinLineage).map((k) => [k.name, k.email])).toEqual([
        [null, null],
        [null, null],
      ]);
      expect(rows.filter((k) => k.usageId !== erinLineage).every((k) => k.name !== null && k.email !== null)).toBe(true);
      expect(await raw.newsletter.listAll()).toHaveLength(1);
    } finally {
      await raw.close();
    }
    const dump = await storeDump(kind, storeUrl);
    for (const text of ["erin.erase", "Erin.Erase", "Erasable", "Erin Keyname"]) expect(dump).not.toContain(text);
    if (!sealed) expect(dump).toContain("Frank Keyname");

    // Asked again, or for an address never stored: exit 1, never a quiet success.
    const again = await runCli(["privacy", "erase", "erin.erase@example.org"], env);
    expect([again.code, JSON.parse(again.stdout)]).toEqual([1, { subscriber_removed: false, key_lineages: [], keys_cleared: 0, settled: true }]);
    expect(again.stderr).toContain("nothing stored for this address");
    expect((await runCli(["privacy", "erase"], env)).code).toBe(2);
    expect((await runCli(["privacy", "forget", "erin.erase@example.org"], env)).code).toBe(2);
  }, 90_000);
});
