import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStore } from "../../src/store/open-store.js";
import type { Store } from "../../src/store/store.js";
import type { ReplayAnchor } from "../../src/store/ports/replay-clock.js";
import { freshStoreUrl, type StoreKind } from "../support/service.js";

const WALL = Date.UTC(2026, 10, 25, 12);
const MARKET = Date.UTC(2026, 3, 16);

const anchor = (epoch: string, wallAt: number, over: Partial<ReplayAnchor> = {}): ReplayAnchor => ({ wallAt, marketAt: MARKET, speed: 60, epoch, heartbeatAt: wallAt, ...over });

/** The cluster's one replay clock (issue 17), on both backends. */
describe.each<StoreKind>(["sqlite", "mongodb"])("replay clock anchor on %s", (kind) => {
  let store: Store;
  beforeAll(async () => {
    store = await openStore(freshStoreUrl(kind, "replayclock"));
  });
  afterAll(() => store.close());

  it("has none at first; the first claim founds the anchor", async () => {
    expect(await store.replayClock.current()).toBeNull();
    const a = anchor("a", WALL);
    expect(await store.replayClock.claim(a, WALL - 15_000)).toEqual(a);
    expect(await store.replayClock.current()).toEqual(a);
  });

  it("a replica claiming while the anchor is alive joins it instead of founding its own", async () => {
    const joined = await store.replayClock.claim(anchor("b", WALL + 3_000, { marketAt: MARKET + 999 }), WALL + 3_000 - 15_000);
    expect(joined.epoch).toBe("a");
    expect(joined.marketAt).toBe(MARKET);
  });

  it("heartbeats keep it alive; a beat for a replaced epoch changes nothing; a heartbeat never goes back", async () => {
    await store.replayClock.beat("a", WALL + 20_000);
    await store.replayClock.beat("a", WALL + 19_000);
    await store.replayClock.beat("nobody", WALL + 60_000);
    expect((await store.replayClock.current())?.heartbeatAt).toBe(WALL + 20_000);
    // 25 s after the start, the anchor beat 5 s ago: still alive.
    expect((await store.replayClock.claim(anchor("c", WALL + 25_000), WALL + 25_000 - 15_000)).epoch).toBe("a");
  });

  it("once nobody has beaten for the stale span (the cluster was down), the next claim anchors anew", async () => {
    const fresh = anchor("d", WALL + 60_000, { marketAt: MARKET + 3_600_000 });
    expect(await store.replayClock.claim(fresh, WALL + 60_000 - 15_000)).toEqual(fresh);
    expect(await store.replayClock.current()).toEqual(fresh);
    await store.replayClock.beat("a", WALL + 70_000);
    expect((await store.replayClock.current())?.heartbeatAt).toBe(WALL + 60_000);
  });

  it("a held anchor (warming up) is set running by its own epoch only, and a replaced one refuses", async () => {
    const held = anchor("w", WALL + 120_000, { speed: 0, marketAt: MARKET - 86_400_000 });
    expect(await store.replayClock.claim(held, WALL + 120_000 - 15_000)).toEqual(held);
    // Another replica arriving meanwhile gets the held anchor back: it waits, it does not found.
    expect((await store.replayClock.claim(anchor("x", WALL + 121_000), WALL + 121_000 - 15_000)).speed).toBe(0);
    expect(await store.replayClock.release(anchor("x", WALL + 122_000))).toBe(false);
    const running = anchor("w", WALL + 150_000, { marketAt: MARKET });
    expect(await store.replayClock.release(running)).toBe(true);
    expect(await store.replayClock.current()).toEqual(running);
  });

  it("a held anchor's beat records how far its warm-up has come, never back; a running or replaced one ignores it", async () => {
    const held = anchor("h", WALL + 300_000, { speed: 0, marketAt: MARKET - 86_400_000 });
    expect(await store.replayClock.claim(held, WALL + 300_000 - 15_000)).toEqual(held);
    await store.replayClock.holdAt("h", WALL + 305_000, MARKET - 3_600_000);
    expect(await store.replayClock.current()).toEqual({ ...held, marketAt: MARKET - 3_600_000, heartbeatAt: WALL + 305_000 });
    // A late beat from before goes back on neither figure.
    await store.replayClock.holdAt("h", WALL + 304_000, MARKET - 7_200_000);
    expect(await store.replayClock.current()).toEqual({ ...held, marketAt: MARKET - 3_600_000, heartbeatAt: WALL + 305_000 });
    await store.replayClock.holdAt("someone else", WALL + 306_000, MARKET);
    expect((await store.replayClock.current())?.marketAt).toBe(MARKET - 3_600_000);
    const running = anchor("h", WALL + 310_000, { marketAt: MARKET });
    expect(await store.replayClock.release(running)).toBe(true);
    await store.replayClock.holdAt("h", WALL + 315_000, MARKET + 86_400_000);
    expect(await store.replayClock.current()).toEqual(running);
  });
});
