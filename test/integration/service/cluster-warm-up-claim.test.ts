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

  async function member(storeUrl: string, wall: ManualClock, speed = 60) {
    const store = await openStore(storeUrl);
    stores.push(store);
    const clock = new ReplayMarketClock(wall, START, speed, END);
    const log = captureLogger();
    return { clock, membership: new ReplayClockMembership(store.replayClock, clock, wall, log.logger), log };
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
});
