import { afterAll, describe, expect, it } from "vitest";
import { freshStoreUrl, startService, type RunningService } from "../../support/service.js";
import { waitFor } from "../../support/wait-for.js";

/**
 * One replay market clock for every process on a store (issue 17): a replica that starts later
 * joins the stored anchor instead of starting a clock of its own, so both answer with the same
 * market time. Before, the second process's clock stood behind by its start delay × REPLAY_SPEED.
 */
describe("the cluster's replay clock", () => {
  const running: RunningService[] = [];
  afterAll(async () => {
    for (const s of running) await s.stop();
  });

  it("a second process on the same store runs on the first one's clock, not its own", async () => {
    const storeUrl = freshStoreUrl("sqlite", "cluster-clock");
    const a = await startService({ STORE_URL: storeUrl, REPLAY_SPEED: "600" });
    running.push(a);
    const anchor = await a.service.store.replayClock.current();
    expect(anchor?.speed).toBe(600);
    // Start the second one once a's market time has run 10 minutes past the anchor (a wall second
    // at 600x): a clock of b's own would stand at least that far behind a's.
    await waitFor(async () => a.service.deps.marketClock.now() >= (anchor?.marketAt ?? 0) + 600_000, 30_000, "ten market minutes on a's clock");
    const b = await startService({ STORE_URL: storeUrl, REPLAY_SPEED: "600" });
    running.push(b);
    expect((await b.service.store.replayClock.current())?.epoch).toBe(anchor?.epoch);
    // Read both at one wall instant (one process, one wall clock): the same market time, give or
    // take the microseconds between the two reads.
    const [ta, tb] = [a.service.deps.marketClock.now(), b.service.deps.marketClock.now()];
    expect(Math.abs(ta - tb)).toBeLessThanOrEqual(600 * 5);
    // And it runs from the founder's anchor, not from where b's own start would have put it.
    expect(ta).toBeGreaterThanOrEqual(anchor?.marketAt ?? Number.POSITIVE_INFINITY);
  }, 120_000);
});
