import { ReplayMarketFeed } from "../../src/feeds/replay/replay-feed.js";

let shared: Promise<ReplayMarketFeed> | undefined;

/** The bundled replay dataset, parsed once per test worker and shared by every service it starts. */
export function sharedReplayFeed(): Promise<ReplayMarketFeed> {
  shared ??= ReplayMarketFeed.load("market-data");
  return shared;
}

/**
 * A REPLAY_START (UTC date) at least `hours` before the end of the bundled data and at most a
 * day more: a fast replay started there reaches the end within seconds and its clock stops, so
 * the service idles while a test reads it (a replay running on at 36,000x keeps the event loop
 * busy long enough to outlast keep-alive sockets: ECONNRESET).
 */
export async function replayStartBeforeEnd(hours: number): Promise<string> {
  const HOUR = 3_600_000;
  const DAY = 24 * HOUR;
  const end = Math.max(...Object.values((await sharedReplayFeed()).span().lastBarClose).filter((t): t is number => t !== null));
  return new Date(Math.floor((end - hours * HOUR) / DAY) * DAY).toISOString().slice(0, 10);
}
