import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStore } from "../../src/store/open-store.js";
import type { Store } from "../../src/store/store.js";
import type { SignalHistoryPoint } from "../../src/store/ports/signal-history.js";
import type { SignalKey } from "../../src/domain/signals/signal-keys.js";
import { freshStoreUrl, type StoreKind } from "../support/service.js";

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
