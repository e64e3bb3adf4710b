import { createHash } from "node:crypto";
import Database from "better-sqlite3";
import { MongoClient } from "mongodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { metricsRegistry } from "../../../src/observability/metrics.js";
import { captureLogger } from "../../support/capture-logger.js";
import { runCli } from "../../support/cli.js";
import { sealKey, storeDump } from "../../support/store-dump.js";
import { freshStoreUrl, startService, type RunningService, type StoreKind } from "../../support/service.js";
import { startSmtp, type RunningSmtp } from "../../support/smtp.js";

/**
 * Newsletter subscribers' personal data sealed at rest (PERSONAL_DATA_KEYS): whoever reads the
 * store (a dump, a backup) finds neither the addresses nor the names people signed up with, nor
 * a hash of them that a list of addresses could be tested against, while the service still
 * welcomes each address once, finds it again on a second sign-up, by its unsubscribe link and
 * from the CLI, and moves every row under a new key in one restart.
 */
/** The stored keys of the newsletter rows (the SQLite `email` column, the MongoDB `_id`). */
async function storedKeys(kind: StoreKind, storeUrl: string): Promise<string[]> {
  if (kind === "sqlite") {
    const db = new Database(storeUrl.slice("sqlite:".length), { readonly: true });
    try {
      return (db.prepare("SELECT email FROM newsletter_subscribers ORDER BY subscribed_at").all() as Array<{ email: string }>).map((r) => r.email);
    } finally {
      db.close();
    }
  }
  const client = await MongoClient.connect(storeUrl);
  try {
    return (await client.db().collection<{ _id: string }>("newsletter_subscribers").find().sort({ subscribedAt: 1 }).toArray()).map((d) => d._id);
  } finally {
    await client.close();
  }
}

/** The unkeyed names a dump must not hold either: the plain SHA-256 a list of addresses could be tested against. */
const sha = (text: string): string => createHash("sha256").update(text).digest("base64url").slice(0, 22);

async function unsealFailures(reason: string): Promise<number> {
  const metric = await metricsRegistry.getSingleMetric("mis_personal_data_unseal_failures_total")?.get();
  return metric?.values.find((v) => v.labels.reason === reason)?.value ?? 0;
}

describe.each<StoreKind>(["sqlite", "mongodb"])("personal data sealed at rest on %s", (kind) => {
  let smtp: RunningSmtp;
  const running: RunningService[] = [];
  const k1 = sealKey("k1");
  const k2 = sealKey("k2");

  const start = async (storeUrl: string, keys: string | null) => {
    const log = captureLogger("info");
    const svc = await startService(
      { STORE_URL: storeUrl, SMTP_URL: smtp.url, MAIL_FROM: "hello@market-intel.test", TRUST_PROXY: "1", ...(keys === null ? {} : { PERSONAL_DATA_KEYS: keys }) },
      { logger: log.logger, newsletter: { retryDelaysMs: [] }, capabilities: [] },
    );
    running.push(svc);
    return { svc, log };
  };
  const stop = async (svc: RunningService) => {
    await svc.stop();
    running.splice(running.indexOf(svc), 1);
  };
  const subscribe = (svc: RunningService, body: unknown, ip: string) =>
    fetch(`${svc.url}/v1/newsletter/subscribe`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-forwarded-for": ip },
      body: JSON.stringify(body),
    });
  const mailsTo = (address: string) => smtp.mails.filter((m) => m.to.includes(address));
  const generateKey = async (svc: RunningService, body: unknown, ip: string) => {
    const res = await fetch(`${svc.url}/v1/keys/generate`, { method: "POST", headers: { "content-type": "application/json", "x-forwarded-for": ip }, body: JSON.stringify(body) });
    expect(res.status).toBe(201);
    return (await res.json()) as { api_key: string; name: string | null; email: string | null };
  };
  const currentKey = async (svc: RunningService, apiKey: string) => {
    const res = await fetch(`${svc.url}/v1/keys/current`, { headers: { "x-api-key": apiKey } });
    return { status: res.status, body: (await res.json()) as { name?: string | null } };
  };
  const sealedAtRest = (lines: ReadonlyArray<Record<string, unknown>>) => lines.find((l) => l.msg === "personal data sealed at rest");

  beforeAll(async () => {
    smtp = await startSmtp();
  });
  afterAll(async () => {
    await Promise.all(running.map((s) => s.stop()));
    await smtp.stop();
  });

  it("keeps addresses and names out of the store while welcoming each address once, by link and by CLI", async () => {
    const storeUrl = freshStoreUrl(kind, "sealed-pii");
    const { svc } = await start(storeUrl, k1);
    expect((await subscribe(svc, { email: "Carol.Private@Example.org", name: "Carol Secretname" }, "198.51.100.1")).status).toBe(200);
    expect((await subscribe(svc, { email: "leaver.private@example.org", name: null }, "198.51.100.2")).status).toBe(200);
    await svc.service.deps.newsletter.drain();
    expect(mailsTo("carol.private@example.org")).toHaveLength(1);
    // A second sign-up finds the sealed row: the same answer, and no second welcome.
    expect((await subscribe(svc, { email: "carol.private@example.org", name: "Other" }, "198.51.100.3")).status).toBe(200);
    await svc.service.deps.newsletter.drain();
    expect(mailsTo("carol.private@example.org")).toHaveLength(1);

    // A key generated with a name and an address: shown once, as given, and then only the name, to the key's holder.
    const issued = await generateKey(svc, { name: "Dana Keyholder", email: "dana.keyowner@example.org" }, "198.51.100.4");
    expect(issued).toMatchObject({ name: "Dana Keyholder", email: "dana.keyowner@example.org" });
    expect(await currentKey(svc, issued.api_key)).toMatchObject({ status: 200, body: { name: "Dana Keyholder" } });
    const rotatedRes = await fetch(`${svc.url}/v1/keys/rotate`, { method: "POST", headers: { "x-api-key": issued.api_key } });
    const rotated = (await rotatedRes.json()) as { api_key: string; name: string | null; email: string | null };
    expect(rotated).toMatchObject({ name: "Dana Keyholder", email: "dana.keyowner@example.org" });
    expect(await currentKey(svc, rotated.api_key)).toMatchObject({ status: 200, body: { name: "Dana Keyholder" } });
    const listed = await runCli(["keys", "list"], { STORE_URL: storeUrl, PERSONAL_DATA_KEYS: k1 });
    expect(listed.code).toBe(0);
    expect((JSON.parse(listed.stdout) as Array<{ name: string | null }>).map((k) => k.name)).toEqual(["Dana Keyholder", "Dana Keyholder"]);

    const dump = await storeDump(kind, storeUrl);
    for (const plain of ["carol.private", "Carol Secretname", "Secretname", "leaver.private", sha("carol.private@example.org"), sha("leaver.private@example.org"), "dana.keyowner", "Keyholder", "198.51.100."]) {
      expect(dump).not.toContain(plain);
    }
    expect(await storedKeys(kind, storeUrl)).toEqual([expect.stringMatching(/^bi1:k1:[A-Za-z0-9_-]{43}$/), expect.stringMatching(/^bi1:k1:/)]);
    expect(dump).toContain("sealed.v1.k1.");

    // The welcome's one-click link finds its sealed row.
    const link = /^List-Unsubscribe:\s*<([^>]+)>/im.exec(mailsTo("leaver.private@example.org")[0]?.raw ?? "")?.[1] ?? "";
    const { pathname, search } = new URL(link);
    const oneClick = await fetch(`${svc.url}${pathname}${search}`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: "List-Unsubscribe=One-Click" });
    expect(oneClick.status).toBe(200);
    expect(await storedKeys(kind, storeUrl)).toHaveLength(1);

    // An erasure request by address, from the operator's CLI.
    const cli = await runCli(["newsletter", "remove", "Carol.Private@example.org"], { STORE_URL: storeUrl, PERSONAL_DATA_KEYS: k1 });
    expect(cli).toMatchObject({ code: 0, stdout: '{"removed":true}\n' });
    expect(await storedKeys(kind, storeUrl)).toEqual([]);
    await stop(svc);
  });

  it("seals rows stored as given at the next start, moves every row under a new key in one restart, and sends nothing a key no longer opens", async () => {
    const storeUrl = freshStoreUrl(kind, "reseal-pii");
    const plain = await start(storeUrl, null);
    expect((await subscribe(plain.svc, { email: "early.bird@example.org", name: "Early Name" }, "198.51.100.10")).status).toBe(200);
    await plain.svc.service.deps.newsletter.drain();
    expect(mailsTo("early.bird@example.org")).toHaveLength(1);
    const early = await generateKey(plain.svc, { name: "Early Keyholder", email: "early.keyowner@example.org" }, "198.51.100.12");
    // Stored by a replica that stopped before its welcome went out: the welcome is still owed.
    // (Signed up an hour ago: welcomes are sent within three days of the sign-up.)
    await plain.svc.service.store.newsletter.subscribe("owed.welcome@example.org", "Owed Name", new Date(Date.now() - 3_600_000).toISOString());
    await stop(plain.svc);
    expect(await storedKeys(kind, storeUrl)).toEqual(["owed.welcome@example.org", "early.bird@example.org"]);

    // With a key: both rows are sealed before the sweep, which then sends the owed welcome once.
    const sealed = await start(storeUrl, k1);
    expect(sealedAtRest(sealed.log.lines)).toMatchObject({
      sealing_key: "k1", subscribers: 2, subscribers_sealed_with: { none: 2 }, subscribers_sealed_again: 2, subscribers_unreadable: 0,
      keys: 1, key_owners_sealed_again: 1, key_owners_unreadable: 0,
    });
    expect(await currentKey(sealed.svc, early.api_key)).toMatchObject({ status: 200, body: { name: "Early Keyholder" } });
    await sealed.svc.service.deps.newsletter.drain();
    expect(mailsTo("owed.welcome@example.org")).toHaveLength(1);
    expect(mailsTo("early.bird@example.org")).toHaveLength(1);
    let dump = await storeDump(kind, storeUrl);
    for (const text of ["early.bird", "owed.welcome", "Early Name", "Owed Name", "early.keyowner", "Keyholder"]) expect(dump).not.toContain(text);
    await stop(sealed.svc);

    // Key replacement: `k2,k1` moves every row under k2, after which k1 holds nothing.
    const replaced = await start(storeUrl, `${k2},${k1}`);
    expect(sealedAtRest(replaced.log.lines)).toMatchObject({ subscribers_sealed_with: { k1: 2 }, subscribers_sealed_again: 2, key_owners_sealed_again: 1 });
    await stop(replaced.svc);
    expect((await storedKeys(kind, storeUrl)).every((key) => key.startsWith("bi1:k2:"))).toBe(true);
    dump = await storeDump(kind, storeUrl);
    expect(dump).not.toContain("sealed.v1.k1.");

    // k1 gone: every row still opens, and a sign-up again is found under k2 (no second welcome).
    const onlyK2 = await start(storeUrl, k2);
    expect(sealedAtRest(onlyK2.log.lines)).toMatchObject({ subscribers_sealed_with: { k2: 2 }, subscribers_sealed_again: 0, key_owners_sealed_again: 0 });
    expect(await currentKey(onlyK2.svc, early.api_key)).toMatchObject({ status: 200, body: { name: "Early Keyholder" } });
    expect((await subscribe(onlyK2.svc, { email: "early.bird@example.org" }, "198.51.100.11")).status).toBe(200);
    await onlyK2.svc.service.deps.newsletter.drain();
    expect(mailsTo("early.bird@example.org")).toHaveLength(1);
    expect(await storedKeys(kind, storeUrl)).toHaveLength(2);
    await stop(onlyK2.svc);

    // A key that opens none of them: the rows stay as they are, the operator is told, and nobody
    // is mailed a welcome made from nonsense.
    const before = await unsealFailures("unknown_key");
    const wrong = await start(storeUrl, sealKey("k3"));
    expect(sealedAtRest(wrong.log.lines)).toMatchObject({ subscribers_sealed_with: { k2: 2 }, subscribers_sealed_again: 0, subscribers_unreadable: 2, key_owners_unreadable: 1 });
    const refused = wrong.log.lines.filter((l) => l.msg === "subscriber's personal data did not open: no welcome is sent to it");
    // Once each, by the start's pass; neither is owed a welcome, so no sweep reads them.
    expect(refused).toHaveLength(2);
    expect(refused[0]?.err).toMatch(/sealed with key "k2", which PERSONAL_DATA_KEYS does not name/);
    // A key's owner fields that do not open never turn its caller away: the name reads as null.
    expect(await currentKey(wrong.svc, early.api_key)).toMatchObject({ status: 200, body: { name: null } });
    expect(await unsealFailures("unknown_key")).toBeGreaterThanOrEqual(before + 2 + 2);
    expect(JSON.stringify(wrong.log.lines)).not.toMatch(/early\.bird|owed\.welcome|early\.keyowner|Keyholder/);
    await stop(wrong.svc);
    expect((await storedKeys(kind, storeUrl)).every((key) => key.startsWith("bi1:k2:"))).toBe(true);
  });

  it("reads an owner typed before sealing that starts like a sealed value as typed, seals it at the next start, and erases it by its address", async () => {
    // Before sealing, a caller may type anything: an address is a valid address with this prefix.
    const storeUrl = freshStoreUrl(kind, "sealed-lookalike");
    const plain = await start(storeUrl, null);
    const typed = { name: "sealed.v1.k1.Mallory", email: "sealed.v1.k1.mallory@example.org" };
    const key = await generateKey(plain.svc, typed, "198.51.100.20");
    await stop(plain.svc);

    const sealed = await start(storeUrl, k1);
    expect(sealedAtRest(sealed.log.lines)).toMatchObject({ keys: 1, key_owners_sealed_again: 1, key_owners_unreadable: 0 });
    expect(await currentKey(sealed.svc, key.api_key)).toMatchObject({ status: 200, body: { name: typed.name } });
    await stop(sealed.svc);
    expect(await storeDump(kind, storeUrl)).not.toContain("Mallory");

    const erased = await runCli(["privacy", "erase", typed.email], { STORE_URL: storeUrl, PERSONAL_DATA_KEYS: k1 });
    expect(erased.code).toBe(0);
    expect(JSON.parse(erased.stdout)).toMatchObject({ keys_cleared: 1 });
  });
});
