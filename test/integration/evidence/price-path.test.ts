import { describe, expect, it } from "vitest";
import { extendPricePath, pricePath } from "../../../src/application/ruling-streams.js";
import { PricePathBuilder } from "../../../src/domain/calibration/price-path.js";
import { sharedReplayFeed } from "../../support/replay-feed.js";

const HOUR = 3_600_000;

describe("a price path extended in place", () => {
  it("equals the path built whole at every step, on the bundled bars, whatever the steps' sizes", async () => {
    const feed = await sharedReplayFeed();
    const start = Date.UTC(2024, 0, 1);
    const known = new PricePathBuilder(16);
    extendPricePath(feed, "ETH", known, start);
    expect(known.path().points()).toEqual(pricePath(feed, "ETH", start).points());
    // Within an hour, a step, several days, and times between bar closes.
    for (const step of [20 * 60_000, HOUR, 5 * HOUR + 17 * 60_000, 3 * 24 * HOUR, 1, 41 * HOUR]) {
      const to = (known.lastTime() ?? start) + step;
      extendPricePath(feed, "ETH", known, to);
      const whole = pricePath(feed, "ETH", to);
      expect(known.length).toBe(whole.length);
      expect(known.lastTime()).toBe(whole.lastTime());
    }
    const end = known.lastTime() ?? 0;
    expect(known.path().points()).toEqual(pricePath(feed, "ETH", end).points());
  });

  it("never takes a bar closed after the time asked for, and never goes back", async () => {
    const feed = await sharedReplayFeed();
    const known = new PricePathBuilder();
    const to = Date.UTC(2024, 5, 1, 12, 30);
    extendPricePath(feed, "BTC", known, to);
    expect(known.lastTime()).toBe(Date.UTC(2024, 5, 1, 12));
    const before = known.length;
    extendPricePath(feed, "BTC", known, to - 5 * HOUR);
    expect(known.length).toBe(before);
  });
});
