import { describe, expect, it } from "vitest";
import { loadConfig } from "../../../src/config/env.js";
import { openMarket } from "../../../src/composition/open-market.js";
import { ManualClock } from "../../../src/runtime/clocks/clock.js";
import { sharedReplayFeed } from "../../support/replay-feed.js";

/** DECISIONS 1: REPLAY_START is where the replay clock starts, given as a day or as an instant. */
describe("REPLAY_START", () => {
  it("starts the replay at the instant given, or at 00:00 UTC of the day given", async () => {
    const feed = await sharedReplayFeed();
    const startAt = async (value: string) => (await openMarket(loadConfig({ REPLAY_START: value, LOG_LEVEL: "silent" }), new ManualClock(0), feed)).runFrom;
    expect(await startAt("2026-03-01T07:00:00Z")).toBe(Date.UTC(2026, 2, 1, 7));
    expect(await startAt("2026-03-01T09:00:00+02:00")).toBe(Date.UTC(2026, 2, 1, 7));
    expect(await startAt("2026-03-01")).toBe(Date.UTC(2026, 2, 1));
  });
});
