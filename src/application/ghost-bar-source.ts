import type { BarInput, CouncilView, JudiciaryView, LiquidityView } from "../domain/ghost/bar-input.js";
import type { SignalAtEntry } from "../domain/ghost/trade.js";
import type { Candle } from "../domain/signals/reading.js";
import { SIGNAL_KEYS, type Asset, type SignalKey } from "../domain/signals/signal-keys.js";
import type { MarketFeed } from "../feeds/market-feed.js";
import type { CouncilSessionRepository } from "../store/ports/council-sessions.js";
import type { RegimeHistoryRepository } from "../store/ports/regime-history.js";
import type { VerdictRepository } from "../store/ports/verdicts.js";
import type { CouncilSession } from "../domain/council/council-types.js";
import { regimeViewOf } from "../domain/regime/regime-view.js";
import { currentRegimeAt } from "./current-regime.js";
import type { StoredVerdict } from "../store/ports/verdicts.js";

const HOUR = 3_600_000;
/**
 * How old the newest verdict may be at a bar's close and still gate it. Verdicts come every 5
 * minutes; an hour leaves room for a verdict actor running behind the Ghost Trader.
 */
export const VERDICT_FRESHNESS_MS = HOUR;
/**
 * How old the newest council session may be at a bar's close and still gate it. Sessions come
 * every 30 minutes; on a BLACKOUT day none run, and the day before's last session must not keep
 * the council gate open through the TIER1 release the pause is for (nor after a gap in the price).
 */
export const SESSION_FRESHNESS_MS = HOUR;
const SIGNAL_KEY_SET: ReadonlySet<string> = new Set(SIGNAL_KEYS);

/**
 * Where a Ghost Trader gets its closed bars and the engine outputs at each bar's close. The
 * actor depends on this, not on the feed and stores directly, so tests can hand it BarInputs they
 * assembled themselves from real candles.
 */
export interface GhostBarSource {
  /** Up to `limit` hourly bars of `asset` closed at or before `at`, oldest first. */
  bars(asset: Asset, at: number, limit: number): readonly Candle[];
  /** Everything the trader needs at the close of `candle` (nothing after that close). */
  input(asset: Asset, candle: Candle, liquidity: LiquidityView): Promise<BarInput>;
}

export interface EngineOutputs {
  readonly verdicts: VerdictRepository;
  readonly councilSessions: CouncilSessionRepository;
  readonly regimeHistory: RegimeHistoryRepository;
}

/**
 * The service's source: candles and indicators from the market feed, the newest judiciary verdict,
 * council session and regime stored at or before the bar's close (as-of reads, no look-ahead).
 */
export class FeedBarSource implements GhostBarSource {
  constructor(
    private readonly feed: MarketFeed,
    private readonly engines: EngineOutputs,
  ) {}

  bars(asset: Asset, at: number, limit: number): readonly Candle[] {
    return this.feed.candles(asset, "1h", at, limit);
  }

  async input(asset: Asset, candle: Candle, liquidity: LiquidityView): Promise<BarInput> {
    const close = candle.t + HOUR;
    const [verdict, session, regime] = await Promise.all([
      this.engines.verdicts.latest(asset, close),
      asset === "ETH" ? Promise.resolve(null) : this.engines.councilSessions.latest(asset, close),
      currentRegimeAt(this.engines.regimeHistory, close),
    ]);
    const tech = this.feed.technicals(asset, "1h", close)?.values ?? null;
    const ratio = this.feed.assetFeatures(asset, close).ratioToBtc.value;
    // A verdict from before a gap in the price (no ruling is made without one) does not speak for
    // this bar: bars caught up after an outage would otherwise enter on an hours-old ruling.
    const current = verdict !== null && close - verdict.at <= VERDICT_FRESHNESS_MS ? verdict : null;
    return {
      asset,
      candle,
      judiciary: current === null ? null : judiciaryView(current),
      council: councilViewAt(close, session),
      regime: regimeViewOf(regime),
      indicators: {
        rsi1h: tech?.rsi14 ?? null,
        ema200: tech?.ema200 ?? null,
        volumeRatio: tech?.volumeRatio ?? null,
        rsiLow12h: this.rsiLow(asset, close),
      },
      liquidity,
      // No network-health source is bundled or polled: SOL's is UNKNOWN, never invented.
      extras: { assetBtcRatio: ratio, networkHealth: asset === "SOL" ? "UNKNOWN" : null },
    };
  }

  /** Lowest RSI(1 h) over the 12 bars ending at `close` (mode B pullback detection). */
  private rsiLow(asset: Asset, close: number): number | null {
    let low: number | null = null;
    for (let k = 0; k < 12; k++) {
      const rsi = this.feed.technicals(asset, "1h", close - k * HOUR)?.values.rsi14 ?? null;
      if (rsi !== null && (low === null || rsi < low)) low = rsi;
    }
    return low;
  }
}

function judiciaryView(v: StoredVerdict): JudiciaryView {
  const signals: SignalAtEntry[] = v.verdict.evidence
    .filter((e) => SIGNAL_KEY_SET.has(e.key) && e.value !== null)
    .map((e) => ({ key: e.key as SignalKey, value: e.value, contribution: e.contribution }));
  return { ruling: v.verdict.ruling, confidence: v.verdict.confidence, verdictId: v.id, signals };
}

/** What of a council session the council gate reads. */
export type CouncilGateSession = Pick<CouncilSession, "id" | "at" | "ruling" | "confidence">;

/** The council gate's input at a bar's close: none when the newest session is older than `SESSION_FRESHNESS_MS`. */
export function councilViewAt(close: number, session: CouncilGateSession | null): CouncilView | null {
  return session === null || close - session.at > SESSION_FRESHNESS_MS ? null : { ruling: session.ruling, confidence: session.confidence, sessionId: session.id };
}
