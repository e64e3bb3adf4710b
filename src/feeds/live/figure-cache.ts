import { historyPercentile20, SECTOR_HISTORY_MS } from "../../domain/signals/history-percentile.js";
import {
  FIGURE_REFRESH_MS,
  TAO_STAKING_TREND_WINDOW_MS,
  TAO_SUBNET_TREND_WINDOW_MS,
  type NetworkFigure,
  type NetworkFigureKey,
  type NetworkFigures,
} from "../../domain/signals/network-figures.js";
import { signalStatus } from "../../domain/signals/signal-status.js";

const HOUR = 3_600_000;

const round2 = (v: number) => Math.round(v * 100) / 100;

/**
 * The live feed's memory of the per-asset network and sector figures: per figure one observation
 * per clock hour (the newest of that hour), kept for 90 days, so the AI-sector percentile and the
 * TAO 7- and 30-day changes have a bounded history (at most 2,160 points per figure) that does not
 * over-weight the hours polled most often.
 * The newest observation is always the last entry. It lives in memory; with the service's live
 * observation log a restarted process reloads it (feed-sync.ts), so the percentile keeps its history.
 */
export class FigureCache {
  private readonly byKey = new Map<NetworkFigureKey, NetworkFigure[]>();

  constructor(private readonly retentionMs = SECTOR_HISTORY_MS) {}

  record(figures: readonly NetworkFigure[]): void {
    for (const f of figures) {
      const list = this.byKey.get(f.key) ?? [];
      const last = list[list.length - 1];
      if (last && f.observedAt < last.observedAt) continue;
      if (last && Math.floor(last.observedAt / HOUR) === Math.floor(f.observedAt / HOUR)) list[list.length - 1] = f;
      else list.push(f);
      const cutoff = f.observedAt - this.retentionMs;
      let drop = 0;
      while (drop < list.length && (list[drop] as NetworkFigure).observedAt <= cutoff) drop++;
      if (drop > 0) list.splice(0, drop);
      this.byKey.set(f.key, list);
    }
  }

  history(key: NetworkFigureKey): readonly NetworkFigure[] {
    return this.byKey.get(key) ?? [];
  }

  /** The newest observation at or before `at` while it is LIVE (≤ 2 × refresh old), else null. */
  fresh(key: NetworkFigureKey, at: number): NetworkFigure | null {
    const list = this.history(key);
    for (let i = list.length - 1; i >= 0; i--) {
      const f = list[i] as NetworkFigure;
      if (f.observedAt > at) continue;
      return signalStatus(f.observedAt, FIGURE_REFRESH_MS[key], at) === "LIVE" ? f : null;
    }
    return null;
  }

  /**
   * The fresh observation at `at` and the one the cache would have answered `windowMs` before
   * it, or null. Asking for a LIVE value at the window's start keeps a gap in the history from
   * silently stretching the window to whatever older value happens to be there.
   */
  private across(key: NetworkFigureKey, at: number, windowMs: number): { readonly now: number; readonly then: number } | null {
    const now = this.fresh(key, at);
    const then = now === null ? null : this.fresh(key, now.observedAt - windowMs);
    return now === null || then === null ? null : { now: now.value, then: then.value };
  }

  figuresAt(at: number): NetworkFigures {
    const ai = this.fresh("AI_SECTOR_CHANGE_24H", at);
    const stake = this.across("TAO_STAKING_RATIO", at, TAO_STAKING_TREND_WINDOW_MS);
    const subnets = this.across("TAO_SUBNET_COUNT", at, TAO_SUBNET_TREND_WINDOW_MS);
    return {
      solNetworkTps: this.fresh("SOL_NETWORK_TPS", at)?.value ?? null,
      solNetworkTpsChangePct: this.fresh("SOL_NETWORK_TPS_CHANGE", at)?.value ?? null,
      solStakingParticipationPct: this.fresh("SOL_STAKING_PARTICIPATION", at)?.value ?? null,
      aiSector: ai === null ? null : { change24hPct: ai.value, percentile20: historyPercentile20(this.history("AI_SECTOR_CHANGE_24H"), at) },
      taoStakingRatioPct: this.fresh("TAO_STAKING_RATIO", at)?.value ?? null,
      // Percentage points: the ratio is already a share, so a relative change of it would double-scale.
      taoStakingRatioChange7dPct: stake === null ? null : round2(stake.now - stake.then),
      taoSubnetCount: this.fresh("TAO_SUBNET_COUNT", at)?.value ?? null,
      taoSubnetCountChange30dPct: subnets === null || subnets.then <= 0 ? null : round2((subnets.now / subnets.then - 1) * 100),
    };
  }
}
