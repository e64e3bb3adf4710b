import { ASSETS } from "../../domain/signals/signal-keys.js";
import type { FeedSpan } from "../market-feed.js";

const DAY = 86_400_000;

/** DECISIONS 1: REPLAY_START defaults to 30 days before the end of the shortest hourly series. */
export function defaultReplayStart(span: FeedSpan): number {
  const ends = ASSETS.map((a) => span.lastBarClose[a]).filter((e): e is number => e !== null);
  if (ends.length === 0) throw new Error("replay data has no hourly candles");
  return Math.min(...ends) - 30 * DAY;
}
