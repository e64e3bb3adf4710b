import { describe, expect, it } from "vitest";
import type { NetworkFigure, NetworkFigureKey } from "../../../../src/domain/signals/network-figures.js";
import { FigureCache } from "../../../../src/feeds/live/figure-cache.js";

const MIN = 60_000;
const H = 60 * MIN;
const DAY = 24 * H;
const T0 = Date.UTC(2026, 4, 1);
const fig = (key: NetworkFigureKey, value: number, observedAt: number): NetworkFigure => ({ key, value, observedAt, source: "test" });

describe("FigureCache: the live feed's per-asset network and sector figures", () => {
  it("answers as of `at`, and only while a figure is at most twice its refresh interval old", () => {
    const c = new FigureCache();
    c.record([fig("SOL_NETWORK_TPS", 1000, T0), fig("SOL_STAKING_PARTICIPATION", 66.5, T0), fig("AI_SECTOR_CHANGE_24H", -2, T0)]);
    expect(c.figuresAt(T0 - 1)).toEqual({ solNetworkTps: null, solNetworkTpsChangePct: null, solStakingParticipationPct: null, aiSector: null });
    expect(c.figuresAt(T0 + 2 * H)).toEqual({ solNetworkTps: 1000, solNetworkTpsChangePct: null, solStakingParticipationPct: 66.5, aiSector: { change24hPct: -2, percentile20: null } });
    // TPS and the AI sector refresh hourly: past 2 h they are not used; stake refreshes daily.
    expect(c.figuresAt(T0 + 2 * H + 1)).toEqual({ solNetworkTps: null, solNetworkTpsChangePct: null, solStakingParticipationPct: 66.5, aiSector: null });
    expect(c.figuresAt(T0 + 2 * DAY + 1).solStakingParticipationPct).toBeNull();
  });

  it("keeps one observation per clock hour (the newest), in order, for 90 days", () => {
    const c = new FigureCache();
    c.record([fig("AI_SECTOR_CHANGE_24H", 1, T0), fig("AI_SECTOR_CHANGE_24H", 2, T0 + 5 * MIN), fig("AI_SECTOR_CHANGE_24H", 3, T0 + 55 * MIN)]);
    c.record([fig("AI_SECTOR_CHANGE_24H", 4, T0 + H), fig("AI_SECTOR_CHANGE_24H", 0, T0 + 30 * MIN)]);
    expect(c.history("AI_SECTOR_CHANGE_24H").map((f) => f.value)).toEqual([3, 4]);
    expect(c.figuresAt(T0 + H).aiSector?.change24hPct).toBe(4);
    c.record([fig("AI_SECTOR_CHANGE_24H", 5, T0 + 90 * DAY + H)]);
    expect(c.history("AI_SECTOR_CHANGE_24H").map((f) => f.value)).toEqual([5]);
  });
});
