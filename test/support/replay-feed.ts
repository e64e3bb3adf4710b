import { ReplayMarketFeed } from "../../src/feeds/replay/replay-feed.js";

let shared: Promise<ReplayMarketFeed> | undefined;

/** The bundled replay dataset, parsed once per test worker and shared by every service it starts. */
export function sharedReplayFeed(): Promise<ReplayMarketFeed> {
  shared ??= ReplayMarketFeed.load("market-data");
  return shared;
}
