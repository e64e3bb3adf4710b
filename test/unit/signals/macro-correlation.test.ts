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
    expect(m.signals[3]).toMatchObject({ key: "NASDAQ", status: "LIVE" });
    expect(m.signals[3]?.change_24h_pct).toBeCloseTo(-5, 9);
  });

  it("ignores series that are not LIVE", () => {
    const old = NOW - 10 * 86_400_000;
    const stale = { ...point("NASDAQ", 10000, 20000), observedAt: old };
    const m = buildMacroCorrelation({ mode: "replay", at: NOW, series: { ...calm, NASDAQ: stale }, btcNasdaqCorr: null });
    expect(m.risk_off_score).toBe(50);
    expect(m.signals[3]?.status).toBe("DEAD");
  });
});
