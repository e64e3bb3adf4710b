import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readCheckedLedger } from "../../src/application/ledger-snapshot.js";
import { INTEGRITY_CHECKS } from "../../src/domain/ghost/ledger-integrity.js";
import { openMongo } from "../../src/store/mongo/database.js";
import { openStore } from "../../src/store/open-store.js";
import { openSqlite } from "../../src/store/sqlite/database.js";
import type { Store } from "../../src/store/store.js";
import { closedTrade, traderStatus } from "../support/ghost-trades.js";
import { freshStoreUrl, startService, type RunningService, type StoreKind } from "../support/service.js";

const H = 3_600_000;
const T0 = Date.UTC(2020, 0, 6);
const NOW = T0 + 30 * 24 * H;
const READS_BACK = "every stored trade and trader status reads back, its amounts finite and prices positive";

const sound = closedTrade("BTC", T0, 4.5);
const spoilt = closedTrade("BTC", T0 + 24 * H, -2);
const other = closedTrade("SOL", T0, 3);

/**
 * Stores an exit price of 0 in one trade's row behind the adapter's back, as a bug in an older
 * build or a hand edit of the database would: the ledger schema refuses it when read.
 */
async function spoilRow(kind: StoreKind, url: string, id: string): Promise<void> {
  if (kind === "sqlite") {
    const db = openSqlite(url.slice("sqlite:".length));
    try {
      const changed = db.prepare("UPDATE ghost_trades SET body = json_set(body, '$.exitPrice', 0) WHERE id = ?").run(id).changes;
      expect(changed).toBe(1);
    } finally {
      db.close();
    }
    return;
  }
  const { client, db } = await openMongo(url);
  try {
    const r = await db.collection<{ _id: string }>("ghost_trades").updateOne({ _id: id }, { $set: { "trade.exitPrice": 0 } });
    expect(r.modifiedCount).toBe(1);
  } finally {
    await client.close();
  }
}

/** Stores a trader status of a shape this build does not read (an unknown status word). */
async function spoilStatus(kind: StoreKind, url: string, asset: string): Promise<void> {
  if (kind === "sqlite") {
    const db = openSqlite(url.slice("sqlite:".length));
    try {
      expect(db.prepare("UPDATE ghost_snapshots SET body = json_set(body, '$.status', 'PAUSED') WHERE asset = ?").run(asset).changes).toBe(1);
    } finally {
      db.close();
    }
    return;
  }
  const { client, db } = await openMongo(url);
  try {
    const r = await db.collection<{ _id: string }>("ghost_snapshots").updateOne({ _id: asset }, { $set: { "snapshot.status": "PAUSED" } });
    expect(r.modifiedCount).toBe(1);
  } finally {
    await client.close();
  }
}

const failing = (checks: readonly { name: string; passed: boolean }[]) => checks.filter((c) => !c.passed).map((c) => c.name);

describe.each<StoreKind>(["sqlite", "mongodb"])("a stored trade that does not read back, on %s", (kind) => {
  const url = freshStoreUrl(kind, "unreadable");
  let store: Store;

  beforeAll(async () => {
    store = await openStore(url);
    await store.ghostLedger.saveClosed([sound, spoilt, other]);
    await spoilRow(kind, url, spoilt.id);
  });
  afterAll(async () => {
    await store.close();
  });

  it("fails the routes' strict read, so no track record is published with it left out", async () => {
    await expect(store.ghostLedger.closed()).rejects.toThrow(/exitPrice/);
    await expect(store.ghostLedger.closed("BTC")).rejects.toThrow(/exitPrice/);
    expect((await store.ghostLedger.closed("SOL")).map((t) => t.id)).toEqual([other.id]);
  });

  it("is left out and counted by the integrity read, failing one check and no other", async () => {
    expect(await store.ghostLedger.closedChecked()).toEqual({ trades: [sound, other], unreadable: 1 });
    expect(await store.ghostLedger.closedChecked("BTC")).toEqual({ trades: [sound], unreadable: 1 });
    const { snapshot, checks } = await readCheckedLedger(store.ghostLedger, NOW);
    expect(snapshot.closed.map((t) => t.id)).toEqual([sound.id, other.id]);
    expect(failing(checks)).toEqual([READS_BACK]);
    expect(checks).toHaveLength(INTEGRITY_CHECKS.length);
  });
});

describe.each<StoreKind>(["sqlite", "mongodb"])("a stored trader status that does not read back, on %s", (kind) => {
  const url = freshStoreUrl(kind, "unreadable-status");
  let store: Store;

  beforeAll(async () => {
    store = await openStore(url);
    await store.ghostLedger.saveClosed([sound, other]);
    for (const asset of ["BTC", "SOL"] as const) await store.ghostLedger.saveSnapshot(traderStatus(asset, NOW - H));
    await spoilStatus(kind, url, "BTC");
  });
  afterAll(async () => {
    await store.close();
  });

  it("fails the status routes' strict read and is named by the checked one", async () => {
    await expect(store.ghostLedger.snapshot("BTC")).rejects.toThrow(/status/);
    expect(await store.ghostLedger.snapshotsChecked()).toEqual({ snapshots: [traderStatus("SOL", NOW - H)], unreadable: ["BTC"] });
    expect(await store.ghostLedger.snapshotsChecked("BTC")).toEqual({ snapshots: [], unreadable: ["BTC"] });
    expect(await store.ghostLedger.snapshotsChecked("SOL")).toEqual({ snapshots: [traderStatus("SOL", NOW - H)], unreadable: [] });
    expect(await store.ghostLedger.snapshotsChecked("ETH")).toEqual({ snapshots: [], unreadable: [] });
  });

  it("fails the reads-back check and no other", async () => {
    const { checks } = await readCheckedLedger(store.ghostLedger, NOW);
    expect(failing(checks)).toEqual([READS_BACK]);
  });
});

describe("GET /v1/ghost/stats over a ledger with a row that does not read back (SQLite)", () => {
  const url = freshStoreUrl("sqlite", "unreadable-http");
  let svc: RunningService;

  beforeAll(async () => {
    svc = await startService({ STORE_URL: url });
    await svc.service.deps.store.ghostLedger.saveClosed([sound, spoilt, other]);
    await spoilRow("sqlite", url, spoilt.id);
  }, 120_000);
  afterAll(async () => {
    await svc.stop();
  });

  it("answers with tests_passing one short, where the track record refuses with a 500 and a request id", async () => {
    const stats = await fetch(`${svc.url}/v1/ghost/stats`);
    expect(stats.status).toBe(200);
    const body = (await stats.json()) as { tests_passing: number };
    expect(body.tests_passing).toBe(INTEGRITY_CHECKS.length - 1);
    const record = await fetch(`${svc.url}/v1/btc/track-record`);
    expect(record.status).toBe(500);
    const refused = (await record.json()) as Record<string, unknown>;
    expect(refused.detail).toBe("Internal Server Error");
    expect(typeof refused.request_id).toBe("string");
    expect(JSON.stringify(refused)).not.toMatch(/exitPrice|ZodError|at /);
  });
});
