import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStore } from "../../src/store/open-store.js";
import type { Store } from "../../src/store/store.js";
import { START_OF_LOG, type LiveObservationCursor, type StoredLiveObservation } from "../../src/store/ports/live-observations.js";
import { freshStoreUrl, type StoreKind } from "../support/service.js";

const T0 = Date.UTC(2026, 10, 1);
const H = 3_600_000;

async function readAll(store: Store, from: LiveObservationCursor = START_OF_LOG, pageSize = 3): Promise<StoredLiveObservation[]> {
  const out: StoredLiveObservation[] = [];
  let cursor = from;
  for (;;) {
    const page = await store.liveObservations.after(cursor, pageSize);
    out.push(...page);
    const last = page.at(-1);
    if (!last || page.length < pageSize) return out;
    cursor = last;
  }
}

describe.each<StoreKind>(["sqlite", "mongodb"])("live observation log on %s", (kind) => {
  let store: Store;
  beforeAll(async () => {
    store = await openStore(freshStoreUrl(kind, "liveobs"));
  });
  afterAll(() => store.close());

  it("starts empty, then returns what was put, in write order", async () => {
    expect(await store.liveObservations.after(START_OF_LOG, 10)).toEqual([]);
    expect(await store.liveObservations.put([{ stream: "reading:DVOL", at: T0, payload: '{"value":50}' }], 1000)).toBe(1);
    expect(await store.liveObservations.put([{ stream: "candle:BTC", at: T0, payload: '{"c":1}' }, { stream: "candle:BTC", at: T0 + H, payload: '{"c":2}' }], 2000)).toBe(2);
    const rows = await readAll(store);
    expect(rows.map((r) => [r.stream, r.at, r.payload, r.writtenAt])).toEqual([
      ["reading:DVOL", T0, '{"value":50}', 1000],
      ["candle:BTC", T0, '{"c":1}', 2000],
      ["candle:BTC", T0 + H, '{"c":2}', 2000],
    ]);
  });

  it("ignores a re-sent unchanged observation: it keeps its write time and is not read again", async () => {
    const seen = (await readAll(store)).at(-1)!;
    expect(await store.liveObservations.put([{ stream: "candle:BTC", at: T0 + H, payload: '{"c":2}' }], 3000)).toBe(0);
    expect(await store.liveObservations.after(seen, 10)).toEqual([]);
  });

  it("takes a revised payload as new: replaced in place and handed to readers again", async () => {
    const seen = (await readAll(store)).at(-1)!;
    expect(await store.liveObservations.put([{ stream: "reading:DVOL", at: T0, payload: '{"value":51}' }], 4000)).toBe(1);
    const fresh = await store.liveObservations.after(seen, 10);
    expect(fresh.map((r) => [r.stream, r.payload, r.writtenAt])).toEqual([["reading:DVOL", '{"value":51}', 4000]]);
    expect((await readAll(store)).filter((r) => r.stream === "reading:DVOL")).toHaveLength(1);
  });

  it("pages through many rows written in the same millisecond without skipping or repeating one", async () => {
    const before = (await readAll(store)).at(-1)!;
    const items = Array.from({ length: 11 }, (_, i) => ({ stream: `figure:F${i % 3}`, at: T0 + i * H, payload: `{"v":${i}}` }));
    expect(await store.liveObservations.put(items, 5000)).toBe(11);
    const rows = await readAll(store, before, 4);
    expect(rows).toHaveLength(11);
    expect(new Set(rows.map((r) => r.id)).size).toBe(11);
    expect(rows.every((r) => r.writtenAt === 5000)).toBe(true);
  });

  it("prunes observations older than the cutoff by observation time", async () => {
    const pruned = await store.liveObservations.pruneBefore(T0 + 5 * H);
    expect(pruned).toBeGreaterThan(0);
    const rows = await readAll(store);
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((r) => r.at >= T0 + 5 * H)).toBe(true);
  });
});
