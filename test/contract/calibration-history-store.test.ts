import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStore } from "../../src/store/open-store.js";
import type { Store } from "../../src/store/store.js";
import type { RecordedRuling } from "../../src/store/ports/calibration-history.js";
import { freshStoreUrl, type StoreKind } from "../support/service.js";

const H = 3_600_000;
const T0 = Date.UTC(2026, 2, 1);

const ruling = (stream: string, i: number, score: number): RecordedRuling => ({ stream, at: T0 + i * H, ruling: score > 0 ? "BUY" : "SELL", score });

describe.each<StoreKind>(["sqlite", "mongodb"])("calibration history repository on %s", (kind) => {
  let store: Store;
  beforeAll(async () => {
    store = await openStore(freshStoreUrl(kind, "calhist"));
  });
  afterAll(async () => {
    await store.close();
  });

  it("answers the rulings of the streams asked for, in time order, within the bounds", async () => {
    await store.calibrationHistory.recordRulings([ruling("verdict:BTC", 2, 0.4), ruling("verdict:BTC", 0, -0.2), ruling("verdict:ETH", 1, 0.1), ruling("council:BTC", 1, 0.3)]);
    await store.calibrationHistory.recordRulings([ruling("agent:BTC:TECH HAWK", 1, -0.5), ruling("verdict:BTC", 3, 0.6)]);
    expect(await store.calibrationHistory.rulingsBetween(["verdict:BTC"], T0, T0 + 2 * H)).toEqual([ruling("verdict:BTC", 0, -0.2), ruling("verdict:BTC", 2, 0.4)]);
    const council = await store.calibrationHistory.rulingsBetween(["council:BTC", "agent:BTC:TECH HAWK"], T0, T0 + 9 * H);
    expect(council.map((r) => [r.stream, r.at, r.score]).sort()).toEqual([
      ["agent:BTC:TECH HAWK", T0 + H, -0.5],
      ["council:BTC", T0 + H, 0.3],
    ]);
    expect(await store.calibrationHistory.rulingsBetween([], T0, T0 + 9 * H)).toEqual([]);
  });

  it("keeps the first recording of an hour: a second writer changes nothing", async () => {
    await store.calibrationHistory.recordRulings([ruling("verdict:SOL", 0, 0.25)]);
    await store.calibrationHistory.recordRulings([{ stream: "verdict:SOL", at: T0, ruling: "STRONG_SELL", score: -0.9 }, ruling("verdict:SOL", 1, 0.5)]);
    expect(await store.calibrationHistory.rulingsBetween(["verdict:SOL"], T0, T0 + H)).toEqual([ruling("verdict:SOL", 0, 0.25), ruling("verdict:SOL", 1, 0.5)]);
  });

  it("keeps each asset's closes apart, ascending, first recording kept", async () => {
    await store.calibrationHistory.recordCloses("TAO", [
      { t: T0 + H, close: 410.5 },
      { t: T0, close: 400 },
    ]);
    await store.calibrationHistory.recordCloses("TAO", [
      { t: T0 + H, close: 999 },
      { t: T0 + 2 * H, close: 420.25 },
    ]);
    await store.calibrationHistory.recordCloses("SOL", [{ t: T0, close: 150 }]);
    expect(await store.calibrationHistory.closesBetween("TAO", T0, T0 + 2 * H)).toEqual([
      { t: T0, close: 400 },
      { t: T0 + H, close: 410.5 },
      { t: T0 + 2 * H, close: 420.25 },
    ]);
    expect(await store.calibrationHistory.closesBetween("TAO", T0 + H, T0 + H)).toEqual([{ t: T0 + H, close: 410.5 }]);
    expect(await store.calibrationHistory.closesBetween("SOL", T0, T0 + 9 * H)).toEqual([{ t: T0, close: 150 }]);
  });

  it("prunes rulings and closes older than the cutoff, and only those", async () => {
    const before = (await store.calibrationHistory.rulingsBetween(["verdict:BTC"], T0, T0 + 9 * H)).length;
    const deleted = await store.calibrationHistory.pruneBefore(T0 + H);
    // verdict:BTC, verdict:SOL at T0; TAO's and SOL's closes at T0.
    expect(deleted).toBe(4);
    expect(await store.calibrationHistory.rulingsBetween(["verdict:BTC"], T0, T0 + 9 * H)).toHaveLength(before - 1);
    expect(await store.calibrationHistory.closesBetween("TAO", T0, T0 + 9 * H)).toHaveLength(2);
    expect(await store.calibrationHistory.pruneBefore(T0 + H)).toBe(0);
  });
});
