import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { openStore } from "../../../src/store/open-store.js";
import type { Store } from "../../../src/store/store.js";
import { ManualClock } from "../../../src/runtime/clocks/clock.js";
import { ReplayMarketClock } from "../../../src/runtime/clocks/market-clock.js";
import { ANCHOR_STALE_MS, ReplayClockMembership } from "../../../src/composition/replay-clock-membership.js";
import { captureLogger } from "../../support/capture-logger.js";
import { freshStoreUrl } from "../../support/service.js";

const WALL = Date.UTC(2026, 10, 25, 20);
const START = Date.UTC(2026, 2, 9);
const RUN_FROM = START + 14 * 86_400_000;
const END = RUN_FROM + 30 * 86_400_000;

/**
 * The Dapr cluster's warm-up is done once (issue 17 item 7): the first replica holds the cluster's
 * clock while it warms up, a replica arriving meanwhile waits and then runs on the founder's clock,
 * and a founder that stopped beating is replaced. Two processes' worth of memberships on one store.
 */
describe("holding the cluster's replay clock for the warm-up", () => {
  const stores: Store[] = [];
  afterAll(async () => {
    for (const s of stores) await s.close();
  });

  async function member(storeUrl: string, wall: ManualClock, speed = 60, beatMs?: number) {
    const store = await openStore(storeUrl);
    stores.push(store);
    const clock = new ReplayMarketClock(wall, START, speed, END);
    const log = captureLogger();
    return { clock, membership: new ReplayClockMembership(store.replayClock, clock, wall, log.logger, beatMs), log };
  }

  /**
   * Another process's long write transaction on the store's file: the next write waits out the
   * store's busy timeout and fails (better-sqlite3 waits synchronously, so the commit queued here
   * runs only after that), and the one after goes through.
   */
  function lockedPastBusyTimeout(url: string): void {
    const other = new Database(url.slice("sqlite:".length));
    other.prepare("BEGIN IMMEDIATE").run();
    setTimeout(() => {
      other.prepare("COMMIT").run();
      other.close();
    }, 50);
  }

  /** Resolves once `ok()` holds; false when it did not within `ms` of real time. */
  async function eventually(ok: () => boolean, ms: number): Promise<boolean> {
    const from = Date.now();
    while (!ok() && Date.now() - from < ms) await new Promise((resolve) => setTimeout(resolve, 5));
    return ok();
  }

  it("one founder warms up; the other waits, then joins the clock the founder set running", async () => {
    const url = freshStoreUrl("sqlite", "warm-claim");
    const wall = new ManualClock(WALL);
    const a = await member(url, wall);
    const b = await member(url, wall);
    expect(await a.membership.enter(() => false)).toBe("founder");
    let bRole: string | null = null;
    const bEntered = b.membership.enter(() => false, 5).then((role) => (bRole = role));
    // b keeps waiting while a warms up (its clock does not run meanwhile).
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(bRole).toBeNull();
    expect(b.clock.warmingUp).toBe(true);
    a.clock.advanceTo(RUN_FROM);
    await a.membership.release(() => false);
    expect(await bEntered).toBe("joined");
    expect(b.clock.warmingUp).toBe(false);
    wall.advance(1_000);
    // Both at REPLAY_START plus one wall second at 60x, on one anchor.
    expect(a.clock.now()).toBe(RUN_FROM + 60_000);
    expect(b.clock.now()).toBe(RUN_FROM + 60_000);
    a.membership.stop();
    b.membership.stop();
  });

  it("a founder that stopped beating is replaced, and its late release follows the new clock", async () => {
    const url = freshStoreUrl("sqlite", "warm-stale");
    const wall = new ManualClock(WALL);
    const a = await member(url, wall);
    const b = await member(url, wall);
    expect(await a.membership.enter(() => false)).toBe("founder");
    a.membership.stop(); // a stalls: no heartbeats
    wall.advance(ANCHOR_STALE_MS + 1);
    expect(await b.membership.enter(() => false)).toBe("founder");
    b.clock.advanceTo(RUN_FROM);
    await b.membership.release(() => false);
    a.clock.advanceTo(RUN_FROM);
    await a.membership.release(() => false);
    expect(a.membership.current?.epoch).toBe(b.membership.current?.epoch);
    expect(a.clock.now()).toBe(b.clock.now());
    expect(a.log.lines.some((l) => String(l.msg).includes("took the cluster's replay clock"))).toBe(true);
    a.membership.stop();
    b.membership.stop();
  });

  it("a waiting replica stops waiting when its service stops", async () => {
    const url = freshStoreUrl("sqlite", "warm-cancel");
    const wall = new ManualClock(WALL);
    const a = await member(url, wall);
    const b = await member(url, wall);
    expect(await a.membership.enter(() => false)).toBe("founder");
    let stopped = false;
    const waiting = b.membership.enter(() => stopped, 5);
    stopped = true;
    expect(await waiting).toBe("cancelled");
    a.membership.stop();
  });

  it("a waiting replica answers as of where the founder's warm-up has come, never from its own unstarted position", async () => {
    const url = freshStoreUrl("sqlite", "warm-follow");
    const wall = new ManualClock(WALL);
    const a = await member(url, wall, 60, 10);
    const b = await member(url, wall, 60, 10);
    expect(await a.membership.enter(() => false)).toBe("founder");
    let bRole: string | null = null;
    const bEntered = b.membership.enter(() => false, 5).then((role) => (bRole = role));
    const halfWay = START + 7 * 86_400_000;
    a.clock.advanceTo(halfWay);
    // The founder's next beat says so; the waiting replica's market time follows it, still held.
    expect(await eventually(() => b.clock.now() === halfWay, 5_000)).toBe(true);
    expect(b.clock.warmingUp).toBe(true);
    expect(bRole).toBeNull();
    a.clock.advanceTo(RUN_FROM);
    expect(await eventually(() => b.clock.now() === RUN_FROM, 5_000)).toBe(true);
    await a.membership.release(() => false);
    expect(await bEntered).toBe("joined");
    wall.advance(1_000);
    expect(b.clock.now()).toBe(a.clock.now());
    a.membership.stop();
    b.membership.stop();
  });

  it("a store too busy to answer the claim is asked again; the replica neither gives up nor runs a clock of its own", async () => {
    const url = freshStoreUrl("sqlite", "warm-busy");
    const wall = new ManualClock(WALL);
    const a = await member(url, wall);
    lockedPastBusyTimeout(url);
    expect(await a.membership.enter(() => false, 5)).toBe("founder");
    expect(a.clock.warmingUp).toBe(true);
    expect(a.log.lines.some((l) => String(l.msg).includes("reading the cluster's replay clock failed; trying again"))).toBe(true);
    a.membership.stop();
  }, 20_000);

  it("so is the claim of a replica joining after its own warm-up (the in-process host): it joins once the store answers", async () => {
    const url = freshStoreUrl("sqlite", "join-busy");
    const wall = new ManualClock(WALL);
    const a = await member(url, wall);
    a.clock.advanceTo(RUN_FROM);
    lockedPastBusyTimeout(url);
    const anchor = await a.membership.join(() => false, 5);
    expect(anchor?.marketAt).toBe(RUN_FROM);
    expect(a.clock.warmingUp).toBe(false);
    wall.advance(1_000);
    expect(a.clock.now()).toBe(RUN_FROM + 60_000);
    expect(a.log.lines.some((l) => String(l.msg).includes("reading the cluster's replay clock failed; trying again"))).toBe(true);
    a.membership.stop();
  }, 20_000);
});
