import type { Asset } from "../domain/signals/signal-keys.js";
import type { MarketFeed } from "../feeds/market-feed.js";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** Without --from: the last 30 days (720 hourly bars) before the window's end (a quick look, not a study). */
export const DEFAULT_SPAN_DAYS = 30;

/** One engine run: the assets that share a [from, to) window of bar open times. */
export interface BacktestWindow {
  readonly assets: readonly Asset[];
  readonly from: number;
  readonly to: number;
}

/**
 * The windows of `backtest --asset … [--from] [--to]`, assets grouped by window so each group is
 * one engine run (one regime timeline).
 *  - Neither given: each asset's own last 30 days, ending at the close of its newest bundled bar.
 *    A shared end (the newest bar of any asset) gave an asset whose data ends earlier (TAO) only
 *    the days it overlapped (5.5 of 30), and `+ 1 ms` past a bar open dropped each window's first
 *    bar (719 of 720).
 *  - --to given: one window for all, from --from or 30 days before --to.
 *  - Only --from given: one window up to the newest bar close of any asset asked for: each
 *    asset's spans clip to its own bars, and one regime run (minutes over years) serves them all.
 * `at` is the "as of" time the newest bars are read with.
 */
export function backtestWindows(feed: Pick<MarketFeed, "candles">, assets: readonly Asset[], from: number | undefined, to: number | undefined, at: number): BacktestWindow[] {
  const lastClose = (a: Asset): number => (feed.candles(a, "1h", at, 1)[0]?.t ?? 0) + HOUR;
  if (from === undefined && to === undefined) {
    const windows: BacktestWindow[] = [];
    for (const asset of assets) {
      const end = lastClose(asset);
      const same = windows.findIndex((w) => w.to === end);
      const w = windows[same];
      if (w !== undefined) windows[same] = { ...w, assets: [...w.assets, asset] };
      else windows.push({ assets: [asset], from: end - DEFAULT_SPAN_DAYS * DAY, to: end });
    }
    return windows;
  }
  const end = to ?? Math.max(...assets.map(lastClose));
  return [{ assets, from: from ?? end - DEFAULT_SPAN_DAYS * DAY, to: end }];
}
