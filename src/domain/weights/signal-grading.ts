import type { Regime } from "../market/vocabulary.js";
import type { Asset, SignalKey } from "../signals/signal-keys.js";
import type { ClosedTrade } from "../ghost/trade.js";

/**
 * A signal's call on one trade. Its direction is the sign of its contribution at entry; readings
 * inside the neutral band (|contribution| < 0.05) made no call and are not graded. Only the sign
 * counts, which normalises signals whose contributions live on different scales.
 * Every Ghost trade is LONG: a win means price went the bullish way, a loss the bearish way.
 *
 * Skill, not geometry (issue 16): the exits win more often than not even for random entries
 * (3 % stop against 2 %/4.5 % targets), so "a bullish call on a winning trade" is right ~58 % of
 * the time with no skill at all. Each grade carries `expected`, the chance the call is right with
 * no skill (`baseline` = random entries' win rate with these exits; bearish calls: 1 − baseline),
 * and the weights compare the hit rate with it, not with 50 %.
 */
export const NEUTRAL_BAND = 0.05;

export interface SignalGrade {
  readonly key: SignalKey;
  readonly regime: Regime;
  readonly asset: Asset;
  readonly correct: boolean;
  /** Probability the call is right with no skill, from the exits' baseline. */
  readonly expected: number;
  readonly exitTime: number;
  readonly tradeId: string;
}

export function gradeTrade(trade: ClosedTrade, baseline: number): SignalGrade[] {
  if (trade.regimeAtEntry === null) return [];
  const rose = trade.pnlUsd > 0;
  const grades: SignalGrade[] = [];
  for (const s of trade.signalsAtEntry) {
    if (!Number.isFinite(s.contribution) || Math.abs(s.contribution) < NEUTRAL_BAND) continue;
    const bullish = s.contribution > 0;
    grades.push({
      key: s.key,
      regime: trade.regimeAtEntry,
      asset: trade.asset,
      correct: bullish === rose,
      expected: bullish ? baseline : 1 - baseline,
      exitTime: trade.exitTime,
      tradeId: trade.id,
    });
  }
  return grades;
}
