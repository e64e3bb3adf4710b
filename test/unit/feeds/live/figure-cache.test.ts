import { describe, expect, it } from "vitest";
import { NO_NETWORK_FIGURES, type NetworkFigure, type NetworkFigureKey } from "../../../../src/domain/signals/network-figures.js";
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
    expect(c.figuresAt(T0 - 1)).toEqual(NO_NETWORK_FIGURES);
    expect(c.figuresAt(T0 + 2 * H)).toEqual({
      ...NO_NETWORK_FIGURES,
      solNetworkTps: 1000,
      solStakingParticipationPct: 66.5,
      aiSector: { change24hPct: -2, percentile20: null },
    });
    // TPS and the AI sector refresh hourly: past 2 h they are not used; stake refreshes daily.
    expect(c.figuresAt(T0 + 2 * H + 1)).toEqual({ ...NO_NETWORK_FIGURES, solStakingParticipationPct: 66.5 });
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

  it("TAO staking ratio: the level while LIVE, and its percentage-point change against the value a week before", () => {
    const c = new FigureCache();
    // Hourly observations for 8 days, the ratio falling 0.01 pp an hour from 70 %.
    for (let h = 0; h <= 8 * 24; h++) c.record([fig("TAO_STAKING_RATIO", Math.round((70 - 0.01 * h) * 100) / 100, T0 + h * H + 5 * MIN)]);
    // Just short of a week of history: the level, no change.
    expect(c.figuresAt(T0 + 7 * DAY - H + 10 * MIN)).toMatchObject({ taoStakingRatioPct: 68.33, taoStakingRatioChange7dPct: null });
    // 7 days after the first value: 70 − 0.01 × 168 = 68.32, 1.68 pp below 70.
    expect(c.figuresAt(T0 + 7 * DAY + 10 * MIN)).toMatchObject({ taoStakingRatioPct: 68.32, taoStakingRatioChange7dPct: -1.68 });
    expect(c.figuresAt(T0 + 8 * DAY + 10 * MIN)).toMatchObject({ taoStakingRatioPct: 68.08, taoStakingRatioChange7dPct: -1.68 });
  });

  it("a gap in the history at the window's start leaves the change null rather than reaching further back", () => {
    const c = new FigureCache();
    c.record([fig("TAO_STAKING_RATIO", 72, T0)]);
    // Nothing for the next 3 days, then hourly again.
    for (let h = 72; h <= 7 * 24 + 6; h++) c.record([fig("TAO_STAKING_RATIO", 71, T0 + h * H)]);
    // A week before T0 + 7 d + 1 h is T0 + 1 h: the value from T0 was then still LIVE (≤ 2 h old).
    expect(c.figuresAt(T0 + 7 * DAY + H).taoStakingRatioChange7dPct).toBe(-1);
    // A week before T0 + 7 d + 3 h is T0 + 3 h: nothing LIVE then, so no change.
    expect(c.figuresAt(T0 + 7 * DAY + 3 * H)).toMatchObject({ taoStakingRatioPct: 71, taoStakingRatioChange7dPct: null });
  });

  it("TAO subnet count: the level, and its % change over 30 days (null before 30 days exist)", () => {
    const c = new FigureCache();
    c.record([fig("TAO_SUBNET_COUNT", 120, T0)]);
    c.record([fig("TAO_SUBNET_COUNT", 126, T0 + 29 * DAY)]);
    expect(c.figuresAt(T0 + 29 * DAY)).toMatchObject({ taoSubnetCount: 126, taoSubnetCountChange30dPct: null });
    c.record([fig("TAO_SUBNET_COUNT", 126, T0 + 30 * DAY)]);
    // 126 / 120 − 1 = +5 %.
    expect(c.figuresAt(T0 + 30 * DAY)).toMatchObject({ taoSubnetCount: 126, taoSubnetCountChange30dPct: 5 });
    // The count itself goes past 2 × its 1 h refresh: level and change are both null.
    expect(c.figuresAt(T0 + 30 * DAY + 2 * H + 1)).toMatchObject({ taoSubnetCount: null, taoSubnetCountChange30dPct: null });
  });
});
