import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStore } from "../../src/store/open-store.js";
import type { Store } from "../../src/store/store.js";
import type { StoredRegime } from "../../src/store/ports/regime-history.js";
import type { RegimeReport } from "../../src/domain/regime/regime-report.js";
import { REGIMES, type Regime } from "../../src/domain/market/vocabulary.js";
import { regimeViewOf } from "../../src/domain/regime/regime-view.js";
import { freshStoreUrl, type StoreKind } from "../support/service.js";

const H = 3_600_000;
const T0 = Date.UTC(2026, 2, 1);

function report(at: number, regime: Regime, confidence: number): RegimeReport {
  const transitions = Object.fromEntries(REGIMES.map((r) => [r, r === regime ? 0.9 : 0.1 / 7])) as Record<Regime, number>;
  return {
    regime,
    confidence,
    btcPrice: 65_000 + at / 1e9,
    detectedAt: at,
    strength: confidence >= 0.8 ? "STRONG" : confidence >= 0.6 ? "MODERATE" : "WEAK",
    subRegime: regime === "LOW_VOLATILITY" ? "COMPRESSION" : null,
    volatilityState: "NORMAL",
    chopScore: 0.42,
    breakoutImminent: regime === "LOW_VOLATILITY" && confidence >= 0.7,
    compatibleStrategies: ["TREND_FOLLOWING"],
    incompatibleStrategies: [],
    transitionProbabilities: transitions,
    regimeAgeHours: 3,
  };
}

const entry = (i: number, regime: Regime = "BULL_TRENDING", confidence = 0.8): StoredRegime => ({ at: T0 + i * H, report: report(T0 + i * H, regime, confidence) });

describe.each<StoreKind>(["sqlite", "mongodb"])("regime history repository on %s", (kind) => {
  let store: Store;
  beforeAll(async () => {
    store = await openStore(freshStoreUrl(kind, "regimehist"));
  });
  afterAll(async () => {
    await store.close();
  });

  it("starts empty: no evaluation at any time", async () => {
    expect(await store.regimeHistory.latestAtOrBefore(T0 + 1000 * H)).toBeNull();
    expect(await store.regimeHistory.between(T0, T0 + 1000 * H)).toEqual([]);
  });

  it("round-trips a whole report, every field intact", async () => {
    const e = entry(0, "LOW_VOLATILITY", 0.75);
    await store.regimeHistory.record(e);
    expect(await store.regimeHistory.latestAtOrBefore(T0)).toEqual(e);
    expect(regimeViewOf(await store.regimeHistory.latestAtOrBefore(T0))).toEqual({ regime: "LOW_VOLATILITY", confidence: 0.75, breakoutImminent: true });
    expect(regimeViewOf(null)).toBeNull();
  });

  it("answers the newest evaluation at or before a time, never a later one", async () => {
    for (const i of [1, 2, 3, 5]) await store.regimeHistory.record(entry(i, i === 5 ? "BEAR_TRENDING" : "BULL_TRENDING"));
    expect((await store.regimeHistory.latestAtOrBefore(T0 + 4 * H))?.at).toBe(T0 + 3 * H);
    expect((await store.regimeHistory.latestAtOrBefore(T0 + 5 * H))?.report.regime).toBe("BEAR_TRENDING");
    expect((await store.regimeHistory.latestAtOrBefore(T0 + 5 * H - 1))?.report.regime).toBe("BULL_TRENDING");
    expect(await store.regimeHistory.latestAtOrBefore(T0 - 1)).toBeNull();
  });

  it("is idempotent per time: a retried write replaces its row instead of adding one", async () => {
    await store.regimeHistory.record(entry(2, "HIGH_VOLATILITY", 0.66));
    await store.regimeHistory.record(entry(2, "HIGH_VOLATILITY", 0.66));
    const all = await store.regimeHistory.between(T0, T0 + 10 * H);
    expect(all.map((e) => e.at)).toEqual([0, 1, 2, 3, 5].map((i) => T0 + i * H));
    expect(all[2]?.report).toMatchObject({ regime: "HIGH_VOLATILITY", confidence: 0.66 });
  });

  it("lists a range oldest first, both ends inclusive", async () => {
    const range = await store.regimeHistory.between(T0 + H, T0 + 3 * H);
    expect(range.map((e) => e.at)).toEqual([T0 + H, T0 + 2 * H, T0 + 3 * H]);
    expect(await store.regimeHistory.between(T0 + 6 * H, T0 + 9 * H)).toEqual([]);
  });

  it("prunes only the evaluations strictly before the cut-off, and pruning again deletes nothing", async () => {
    expect(await store.regimeHistory.pruneBefore(T0 + 2 * H)).toBe(2);
    expect((await store.regimeHistory.between(T0 - H, T0 + 10 * H)).map((e) => e.at)).toEqual([2, 3, 5].map((i) => T0 + i * H));
    expect(await store.regimeHistory.latestAtOrBefore(T0 + 2 * H - 1)).toBeNull();
    expect((await store.regimeHistory.latestAtOrBefore(T0 + 2 * H))?.report.regime).toBe("HIGH_VOLATILITY");
    expect(await store.regimeHistory.pruneBefore(T0 + 2 * H)).toBe(0);
  });
});
