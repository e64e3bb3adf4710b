import { describe, expect, it } from "vitest";
import { loadConfig } from "../../../src/config/env.js";
import { openMarket } from "../../../src/composition/open-market.js";
import { ManualClock } from "../../../src/runtime/clocks/clock.js";
import { sharedReplayFeed } from "../../support/replay-feed.js";
import { captureLogger } from "../../support/capture-logger.js";

/** DECISIONS 1: REPLAY_START is where the replay clock starts, given as a day or as an instant. */
describe("REPLAY_START", () => {
  it("starts the replay at the instant given, or at 00:00 UTC of the day given", async () => {
    const feed = await sharedReplayFeed();
    const startAt = async (value: string) => (await openMarket(loadConfig({ REPLAY_START: value, LOG_LEVEL: "silent" }), new ManualClock(0), feed)).runFrom;
    expect(await startAt("2026-03-01T07:00:00Z")).toBe(Date.UTC(2026, 2, 1, 7));
    expect(await startAt("2026-03-01T09:00:00+02:00")).toBe(Date.UTC(2026, 2, 1, 7));
    expect(await startAt("2026-03-01")).toBe(Date.UTC(2026, 2, 1));
  });

  it("says so when a REPLAY_START past the data is moved back to the data's end", async () => {
    const feed = await sharedReplayFeed();
    const { logger, lines } = captureLogger("warn");
    const market = await openMarket(loadConfig({ REPLAY_START: "2099-01-01" }), new ManualClock(0), feed, {}, undefined, logger);
    expect(market.runFrom).toBeLessThan(Date.UTC(2099, 0, 1));
    expect(lines.filter((l) => l.msg === "REPLAY_START is after the bundled data ends; replay starts at the end of the data")).toEqual([
      expect.objectContaining({ replay_start: "2099-01-01T00:00:00.000Z", data_end: new Date(market.runFrom ?? 0).toISOString() }),
    ]);
    const quiet = captureLogger("warn");
    await openMarket(loadConfig({ REPLAY_START: "2026-03-01" }), new ManualClock(0), feed, {}, undefined, quiet.logger);
    expect(quiet.lines).toEqual([]);
  });
});
