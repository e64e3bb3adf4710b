import { describe, expect, it } from "vitest";
import { buildMacroCorrelation } from "../../../src/domain/signals/macro-correlation.js";
import type { MacroSeriesKey, MacroSeriesPoint } from "../../../src/domain/signals/macro-series.js";
import { macroCorrelationSchema } from "../../../src/http/schemas/signals.js";

const NOW = Date.parse("2026-03-24T12:00:00Z");
const obs = NOW - 12 * 3_600_000;
const point = (key: MacroSeriesKey, value: number, previousValue: number, corr: number | null = 0.2): MacroSeriesPoint => ({
  key,
  value,
  previousValue,
  observedAt: obs,
  correlation30d: corr,
});

describe("buildMacroCorrelation", () => {
  const calm = {
    US10Y: point("US10Y", 4.2, 4.2),
    DXY: point("DXY", 100, 100),
    GOLD: point("GOLD", 3000, 3000),
    NASDAQ: point("NASDAQ", 20000, 20000),
    VIX: point("VIX", 20, 20, null),
    FED_FUNDS: point("FED_FUNDS", 4.5, 4.5, null),
  };

  it("returns 5 items and a neutral reading on a calm day", () => {
    const m = buildMacroCorrelation({ mode: "replay", at: NOW, series: calm, btcNasdaqCorr: null });
    expect(m.signals.map((s) => s.key)).toEqual(["US10Y", "DXY", "GOLD", "NASDAQ", "BTC_NASDAQ_CORR"]);
    expect(m).toMatchObject({ risk_off_score: 50, fed_hawkishness: 50, assessment: "NEUTRAL", alerts: [] });
    expect(m.signals[4]).toMatchObject({ status: "DEAD", value: null, correlation_30d: null });
    const response = { ...m, cached: false, cache_ttl_seconds: 300 };
    expect(macroCorrelationSchema.parse(response)).toEqual(response);
  });

  it("raises RISK_OFF and FED_HAWKISH alerts on a risk-off, hawkish day", () => {
    const m = buildMacroCorrelation({
      mode: "replay",
      at: NOW,
      series: {
        ...calm,
        NASDAQ: point("NASDAQ", 19000, 20000),
        DXY: point("DXY", 101.5, 100),
        US10Y: point("US10Y", 4.4, 4.2),
        VIX: point("VIX", 40, 25, null),
        FED_FUNDS: point("FED_FUNDS", 4.75, 4.5, null),
      },
      btcNasdaqCorr: { key: "BTC_NASDAQ_CORR", value: 0.6, observedAt: obs, source: "test" },
    });
    expect(m.risk_off_score).toBeGreaterThanOrEqual(70);
    expect(m.assessment).toBe("RISK_OFF");
    expect(m.alerts.map((a) => a.alert)).toEqual(["RISK_OFF", "FED_HAWKISH"]);
    // 20 bp on the 10-year (28.9 points) outweighs the 25 bp hike (15.2 points).
    expect(m.alerts[1]).toMatchObject({ key_driver: "US10Y", message: "Fed hawkishness 94 (≥ 70), driven most by the 10-year yield." });
    expect(m.signals[3]).toMatchObject({ key: "NASDAQ", status: "LIVE" });
    expect(m.signals[3]?.change_24h_pct).toBeCloseTo(-5, 9);
  });

  it("publishes changes and correlations at 4 decimals; the scores read them unrounded", () => {
    // The replay's US10Y on 2026-03-20: 4.39 after 4.25, a 3.294117647058825 % change.
    const series = { ...calm, US10Y: point("US10Y", 4.39, 4.25, 0.10801180995637168), DXY: point("DXY", 99.65, 99.2298, -0.15349729594331513) };
    const btcNasdaqCorr = { key: "BTC_NASDAQ_CORR" as const, value: 0.6172687098884024, observedAt: obs, source: "test" };
    const m = buildMacroCorrelation({ mode: "replay", at: NOW, series, btcNasdaqCorr });
    expect(m.signals[0]).toMatchObject({ key: "US10Y", value: 4.39, change_24h_pct: 3.2941, correlation_30d: 0.108 });
    expect(m.signals[1]).toMatchObject({ key: "DXY", value: 99.65, change_24h_pct: 0.4235, correlation_30d: -0.1535 });
    expect(m.signals[4]).toMatchObject({ key: "BTC_NASDAQ_CORR", value: 0.6173 });
    // 14 bp on the 10-year: 50 + 30·tanh(1.4) = 76.5, from the unrounded move.
    expect(m.fed_hawkishness).toBe(77);
  });

  it("names the policy rate as the hawkish alert's driver when a hike outweighs the move in yields", () => {
    // A 25 bp hike (20·tanh(1) = 15.2 points) with the 10-year up 5 bp (30·tanh(0.5) = 13.9 points).
    const series = { ...calm, US10Y: point("US10Y", 4.25, 4.2), FED_FUNDS: point("FED_FUNDS", 4.75, 4.5, null) };
    const m = buildMacroCorrelation({ mode: "replay", at: NOW, series, btcNasdaqCorr: null });
    expect(m.fed_hawkishness).toBe(79);
    expect(m.alerts).toEqual([
      { alert: "FED_HAWKISH", risk_off_score: m.risk_off_score, fed_hawkishness: 79, key_driver: "FED_FUNDS", message: "Fed hawkishness 79 (≥ 70), driven most by the policy rate." },
    ]);
  });

  it("ignores series that are not LIVE", () => {
    const old = NOW - 10 * 86_400_000;
    const stale = { ...point("NASDAQ", 10000, 20000), observedAt: old };
    const m = buildMacroCorrelation({ mode: "replay", at: NOW, series: { ...calm, NASDAQ: stale }, btcNasdaqCorr: null });
    expect(m.risk_off_score).toBe(50);
    expect(m.signals[3]?.status).toBe("DEAD");
  });
});
