import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStore } from "../../src/store/open-store.js";
import type { Store } from "../../src/store/store.js";
import type { SignalHistoryPoint } from "../../src/store/ports/signal-history.js";
import type { SignalKey } from "../../src/domain/signals/signal-keys.js";
import { freshStoreUrl, type StoreKind } from "../support/service.js";
import { openSqlite } from "../../src/store/sqlite/database.js";
import { applyMigrations } from "../../src/store/sqlite/migrate.js";
import { signalHistoryMigrations } from "../../src/store/sqlite/signal-history.js";
import { openMongo } from "../../src/store/mongo/database.js";

const H = 3_600_000;
const T0 = Date.UTC(2026, 2, 1);

function points(key: SignalKey, count: number, from = T0, step = H): SignalHistoryPoint[] {
  return Array.from({ length: count }, (_, i) => ({ signalKey: key, recordedAt: from + i * step, value: 40 + i / 10, source: "test:fixture" }));
}

describe.each<StoreKind>(["sqlite", "mongodb"])("signal history repository on %s", (kind) => {
  let store: Store;
  beforeAll(async () => {
    store = await openStore(freshStoreUrl(kind, "sighist"));
  });
  afterAll(async () => {
    await store.close();
  });

  it("starts empty: no resume point and an empty first page", async () => {
    expect(await store.signalHistory.latestRecordedAt("BTC_RSI")).toBeNull();
    expect(await store.signalHistory.page({ signalKey: "BTC_RSI", asOf: T0 + 1000 * H, page: 1, perPage: 10 })).toEqual({ items: [], total: 0 });
  });

  it("appends, reports how many were new, and resumes from the newest instant", async () => {
    expect(await store.signalHistory.append(points("BTC_RSI", 5))).toBe(5);
    expect(await store.signalHistory.append(points("DXY", 3, T0, 24 * H))).toBe(3);
    expect(await store.signalHistory.latestRecordedAt("BTC_RSI")).toBe(T0 + 4 * H);
    expect(await store.signalHistory.latestRecordedAt("DXY")).toBe(T0 + 2 * 24 * H);
  });

  it("is idempotent: rewriting an instant changes nothing, an overlapping batch adds only the new points", async () => {
    expect(await store.signalHistory.append(points("BTC_RSI", 5))).toBe(0);
    const changed = points("BTC_RSI", 1).map((p) => ({ ...p, value: 99 }));
    expect(await store.signalHistory.append(changed)).toBe(0);
    // Duplicates first, new points after: an ordered writer must not stop at the duplicate.
    expect(await store.signalHistory.append(points("BTC_RSI", 8))).toBe(3);
    const all = await store.signalHistory.page({ signalKey: "BTC_RSI", asOf: T0 + 1000 * H, page: 1, perPage: 500 });
    expect(all.total).toBe(8);
    expect(all.items.at(-1)).toMatchObject({ recordedAt: T0, value: 40 });
  });

  it("skips points another writer stored in the middle of a batch", async () => {
    const batch = points("BTC_MACD_HIST", 30, T0 + 500 * H);
    expect(await store.signalHistory.append([batch[3], batch[10], batch[11], batch[29]].filter((p) => p !== undefined))).toBe(4);
    expect(await store.signalHistory.append(batch)).toBe(26);
    const page = await store.signalHistory.page({ signalKey: "BTC_MACD_HIST", asOf: T0 + 1000 * H, page: 1, perPage: 100 });
    expect(page.items.map((i) => i.recordedAt)).toEqual(batch.map((p) => p.recordedAt).reverse());
  });

  it("pages newest first with the true total, and answers a page past the end with no items", async () => {
    const asOf = T0 + 1000 * H;
    const p1 = await store.signalHistory.page({ signalKey: "BTC_RSI", asOf, page: 1, perPage: 3 });
    expect(p1.total).toBe(8);
    expect(p1.items.map((i) => i.recordedAt)).toEqual([T0 + 7 * H, T0 + 6 * H, T0 + 5 * H]);
    expect(p1.items[0]).toEqual({ signalKey: "BTC_RSI", recordedAt: T0 + 7 * H, value: 40.7, source: "test:fixture" });
    const p3 = await store.signalHistory.page({ signalKey: "BTC_RSI", asOf, page: 3, perPage: 3 });
    expect(p3.items.map((i) => i.recordedAt)).toEqual([T0 + H, T0]);
    expect(await store.signalHistory.page({ signalKey: "BTC_RSI", asOf, page: 4, perPage: 3 })).toEqual({ items: [], total: 8 });
    const dxy = await store.signalHistory.page({ signalKey: "DXY", asOf, page: 1, perPage: 10 });
    expect(dxy.items.every((i) => i.signalKey === "DXY")).toBe(true);
    expect(dxy.total).toBe(3);
  });

  it("never shows a point recorded after asOf (no look-ahead), in items or in total", async () => {
    const page = await store.signalHistory.page({ signalKey: "BTC_RSI", asOf: T0 + 2 * H, page: 1, perPage: 10 });
    expect(page.total).toBe(3);
    expect(page.items.map((i) => i.recordedAt)).toEqual([T0 + 2 * H, T0 + H, T0]);
  });

  it("prunes points older than the cutoff across signals and keeps the rest", async () => {
    expect(await store.signalHistory.pruneBefore(T0 + 3 * H)).toBe(3 + 1);
    const left = await store.signalHistory.page({ signalKey: "BTC_RSI", asOf: T0 + 1000 * H, page: 1, perPage: 10 });
    expect(left.total).toBe(5);
    expect(left.items.at(-1)?.recordedAt).toBe(T0 + 3 * H);
    expect(await store.signalHistory.latestRecordedAt("DXY")).toBe(T0 + 2 * 24 * H);
    expect(await store.signalHistory.pruneBefore(T0 + 3 * H)).toBe(0);
  });

  it("writes a large batch in one call", async () => {
    expect(await store.signalHistory.append(points("FEAR_GREED_INDEX", 2000, T0, 60_000))).toBe(2000);
    const page = await store.signalHistory.page({ signalKey: "FEAR_GREED_INDEX", asOf: T0 + 1000 * H, page: 4, perPage: 500 });
    expect(page.total).toBe(2000);
    expect(page.items).toHaveLength(500);
    expect(page.items.at(-1)?.recordedAt).toBe(T0);
  });
});

/** Writes points the way the adapters stored them before per-signal sequence numbers existed. */
async function writeOldFormat(kind: StoreKind, url: string, old: readonly SignalHistoryPoint[]): Promise<void> {
  if (kind === "sqlite") {
    const db = openSqlite(url.slice("sqlite:".length));
    applyMigrations(db, signalHistoryMigrations.filter((m) => m.version <= 2));
    const insert = db.prepare("INSERT INTO signal_history (signal_key, recorded_at, value, source) VALUES (?, ?, ?, ?)");
    const count = db.prepare("INSERT INTO signal_history_counts (signal_key, n) VALUES (?, ?) ON CONFLICT (signal_key) DO UPDATE SET n = n + 1");
    // Not in time order: the backfill must number by instant, not by insertion.
    for (const p of [...old].reverse()) {
      insert.run(p.signalKey, p.recordedAt, p.value, p.source);
      count.run(p.signalKey, 1);
    }
    db.close();
    return;
  }
  const { client, db } = await openMongo(url);
  await db.collection("signal_history").createIndex({ k: 1, t: -1 }, { unique: true });
  await db
    .collection("signal_history")
    .insertMany([...old].reverse().map((p) => ({ _id: `${p.signalKey}|${p.recordedAt}` as unknown as never, k: p.signalKey, t: p.recordedAt, v: p.value, s: p.source })));
  await client.close();
}

describe.each<StoreKind>(["sqlite", "mongodb"])("signal history paging by sequence on %s", (kind) => {
  const asOf = T0 + 10_000 * H;
  const times = (items: readonly SignalHistoryPoint[]) => items.map((i) => (i.recordedAt - T0) / H);

  it("keeps pages and totals right after pruning the old end and appending new points", async () => {
    const store = await openStore(freshStoreUrl(kind, "sighist-prune"));
    try {
      const h = store.signalHistory;
      expect(await h.append(points("SOPR", 10))).toBe(10);
      expect(await h.pruneBefore(T0 + 4 * H)).toBe(4);
      expect(await h.page({ signalKey: "SOPR", asOf, page: 1, perPage: 4 })).toMatchObject({ total: 6 });
      expect(times((await h.page({ signalKey: "SOPR", asOf, page: 1, perPage: 4 })).items)).toEqual([9, 8, 7, 6]);
      expect(times((await h.page({ signalKey: "SOPR", asOf, page: 2, perPage: 4 })).items)).toEqual([5, 4]);
      expect(await h.page({ signalKey: "SOPR", asOf, page: 3, perPage: 4 })).toEqual({ items: [], total: 6 });
      // asOf inside the series after a prune: numbers still line up with instants.
      const early = await h.page({ signalKey: "SOPR", asOf: T0 + 6 * H, page: 1, perPage: 2 });
      expect(early.total).toBe(3);
      expect(times(early.items)).toEqual([6, 5]);
      expect(await h.append(points("SOPR", 3, T0 + 10 * H))).toBe(3);
      const after = await h.page({ signalKey: "SOPR", asOf, page: 2, perPage: 4 });
      expect(after.total).toBe(9);
      expect(times(after.items)).toEqual([8, 7, 6, 5]);
      // Everything pruned, then written again: starts over cleanly.
      expect(await h.pruneBefore(T0 + 100 * H)).toBe(9);
      expect(await h.page({ signalKey: "SOPR", asOf, page: 1, perPage: 4 })).toEqual({ items: [], total: 0 });
      expect(await h.append(points("SOPR", 2, T0 + 200 * H))).toBe(2);
      expect(times((await h.page({ signalKey: "SOPR", asOf, page: 1, perPage: 4 })).items)).toEqual([201, 200]);
    } finally {
      await store.close();
    }
  });

  it("keeps pages in time order when points land inside and before the stored series", async () => {
    const store = await openStore(freshStoreUrl(kind, "sighist-holes"));
    try {
      const h = store.signalHistory;
      const all = points("BTC_REALIZED_VOL", 12);
      // Every other instant first, then the whole range: the missing ones fall inside the series.
      expect(await h.append(all.filter((_, i) => i % 2 === 1 && i > 2))).toBe(5);
      expect(await h.append(all)).toBe(7);
      const pages = await Promise.all([1, 2, 3].map((page) => h.page({ signalKey: "BTC_REALIZED_VOL", asOf, page, perPage: 5 })));
      expect(pages.map((p) => p.total)).toEqual([12, 12, 12]);
      expect(pages.flatMap((p) => times(p.items))).toEqual([11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0]);
      expect(await h.append(points("BTC_REALIZED_VOL", 2, T0 + 12 * H))).toBe(2);
      expect(times((await h.page({ signalKey: "BTC_REALIZED_VOL", asOf, page: 1, perPage: 3 })).items)).toEqual([13, 12, 11]);
    } finally {
      await store.close();
    }
  });

  it("migrates a history written before sequence numbers: same pages, and appends continue", async () => {
    const url = freshStoreUrl(kind, "sighist-migrate");
    await writeOldFormat(kind, url, [...points("BTC_RSI", 25), ...points("DXY", 4, T0, 24 * H)]);
    const store = await openStore(url);
    try {
      const h = store.signalHistory;
      expect(await h.latestRecordedAt("BTC_RSI")).toBe(T0 + 24 * H);
      const p2 = await h.page({ signalKey: "BTC_RSI", asOf, page: 2, perPage: 10 });
      expect(p2.total).toBe(25);
      expect(times(p2.items)).toEqual([14, 13, 12, 11, 10, 9, 8, 7, 6, 5]);
      expect(p2.items[0]).toEqual({ signalKey: "BTC_RSI", recordedAt: T0 + 14 * H, value: 41.4, source: "test:fixture" });
      expect((await h.page({ signalKey: "DXY", asOf, page: 1, perPage: 10 })).total).toBe(4);
      expect(await h.append(points("BTC_RSI", 27))).toBe(2);
      const p1 = await h.page({ signalKey: "BTC_RSI", asOf, page: 1, perPage: 3 });
      expect(p1.total).toBe(27);
      expect(times(p1.items)).toEqual([26, 25, 24]);
    } finally {
      await store.close();
    }
  });
});

// MongoDB has no multi-document transaction here, so a point inserted inside the series is
// numbered in steps that another replica may meet half done. SQLite does it in one transaction.
describe("signal history numbering across replicas on mongodb", () => {
  const asOf = T0 + 10_000 * H;
  const times = (items: readonly SignalHistoryPoint[]) => items.map((i) => (i.recordedAt - T0) / H);
  const all = async (store: Store, key: SignalKey) => {
    const page = await store.signalHistory.page({ signalKey: key, asOf, page: 1, perPage: 500 });
    return { total: page.total, times: times(page.items) };
  };
  const descending = (n: number) => Array.from({ length: n }, (_, i) => n - 1 - i);

  it("finishes a renumbering a killed replica left, on another replica's next append", async () => {
    const url = freshStoreUrl("mongodb", "sighist-killed");
    const [a, b] = [await openStore(url), await openStore(url)];
    const { client, db } = await openMongo(url);
    try {
      const series = points("BTC_RSI", 12);
      expect(await a.signalHistory.append(series.slice(0, 10).filter((_, i) => i !== 4))).toBe(9);
      // What replica a leaves when it dies inside an out-of-order insert: its marker, and the
      // point stored without its place, before the renumbering that gives it one.
      const hole = series[4];
      if (hole === undefined) throw new Error("fixture");
      await db.collection<{ _id: string }>("signal_history_meta").insertOne({ _id: "renumber|BTC_RSI", from: hole.recordedAt, gen: 1 } as { _id: string });
      await db
        .collection<{ _id: string }>("signal_history")
        .insertOne({ _id: `BTC_RSI|${hole.recordedAt}`, k: "BTC_RSI", t: hole.recordedAt, q: -hole.recordedAt, v: hole.value, s: hole.source } as { _id: string });
      // Replica b opened before the crash and appends in order.
      expect(await b.signalHistory.append(series.slice(10))).toBe(2);
      expect(await all(b, "BTC_RSI")).toEqual({ total: 12, times: descending(12) });
      expect(await db.collection("signal_history_meta").countDocuments({ _id: { $regex: "^renumber" } } as object)).toBe(0);
    } finally {
      await client.close();
      await Promise.all([a.close(), b.close()]);
    }
  });

  it("never lets two replicas appending at the same moment share a number", async () => {
    const url = freshStoreUrl("mongodb", "sighist-race");
    const [a, b] = [await openStore(url), await openStore(url)];
    try {
      const series = points("SOPR", 40);
      for (let i = 0; i < series.length; i += 2) {
        const [even, odd] = [series[i], series[i + 1]];
        if (even === undefined || odd === undefined) throw new Error("fixture");
        // Each reads the same newest point and counts on from it.
        const added = await Promise.all([a.signalHistory.append([even]), b.signalHistory.append([odd])]);
        expect(added).toEqual([1, 1]);
      }
      expect(await all(a, "SOPR")).toEqual({ total: 40, times: descending(40) });
      expect(await all(b, "SOPR")).toEqual({ total: 40, times: descending(40) });
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it("numbers again at start a history whose racing writers shared numbers under the old index", async () => {
    const url = freshStoreUrl("mongodb", "sighist-v1");
    const { client, db } = await openMongo(url);
    try {
      const docs = db.collection<{ _id: string }>("signal_history");
      await docs.createIndex({ k: 1, t: -1 }, { unique: true });
      await docs.createIndex({ k: 1, q: -1 });
      // Version 1: two writers took number 3 at once, and appends went on after one of them.
      const numbers = [1, 2, 3, 3, 4, 5];
      await docs.insertMany(
        points("DXY", 6).map((p, i) => ({ _id: `DXY|${p.recordedAt}`, k: "DXY", t: p.recordedAt, q: numbers[i], v: p.value, s: p.source }) as { _id: string }),
      );
      await db.collection<{ _id: string }>("signal_history_meta").insertOne({ _id: "seq", version: 1 } as { _id: string });
      const store = await openStore(url);
      try {
        expect(await all(store, "DXY")).toEqual({ total: 6, times: descending(6) });
        expect(await store.signalHistory.append(points("DXY", 2, T0 + 6 * H))).toBe(2);
        expect(await all(store, "DXY")).toEqual({ total: 8, times: descending(8) });
        const index = (await docs.indexes()).find((i) => i.name === "k_1_q_-1");
        expect(index?.unique).toBe(true);
      } finally {
        await store.close();
      }
    } finally {
      await client.close();
    }
  });
});
