import type { Config } from "../config/env.js";
import type { Clock } from "../domain/time/clock.js";
import type { MarketFeed } from "../feeds/market-feed.js";
import { LiveMarketClock, ReplayMarketClock, type MarketClock } from "../domain/time/market-clock.js";
import { ReplayMarketFeed } from "../feeds/replay/replay-feed.js";
import { defaultReplayStart } from "../feeds/replay/replay-start.js";
import { ASSETS } from "../domain/signals/signal-keys.js";

export interface Market {
  readonly feed: MarketFeed;
  readonly clock: MarketClock;
}

/** The market the engines read: the bundled history on a replay clock, or live data on wall time. */
export async function openMarket(config: Config, wall: Clock, preloaded?: MarketFeed): Promise<Market> {
  if (config.MARKET_FEED === "live") {
    if (!preloaded) throw new Error("MARKET_FEED=live: the live feed is not wired yet (issue 5)");
    return { feed: preloaded, clock: new LiveMarketClock(wall) };
  }
  const feed = preloaded ?? (await ReplayMarketFeed.load(config.MARKET_DATA_DIR));
  const span = feed.span();
  const ends = ASSETS.map((a) => span.lastBarClose[a]).filter((e): e is number => e !== null);
  const end = Math.max(...ends);
  const start = config.REPLAY_START ? Date.parse(`${config.REPLAY_START}T00:00:00Z`) : defaultReplayStart(span);
  return { feed, clock: new ReplayMarketClock(wall, start, config.REPLAY_SPEED, end) };
}
