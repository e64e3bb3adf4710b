import { roundOrNull } from "../numbers/round-to.js";
import { SIGNAL_CATALOGUE, type FeedMode } from "./catalogue.js";
import type { MacroSeriesKey, MacroSeriesPoint } from "./macro-series.js";
import type { SignalReading } from "./reading.js";
import { signalStatus } from "./signal-status.js";
import type { SignalStatus } from "./signal-keys.js";

export type MacroCorrelationKey = "US10Y" | "DXY" | "GOLD" | "NASDAQ" | "BTC_NASDAQ_CORR";
export type MacroAssessment = "RISK_ON" | "NEUTRAL" | "RISK_OFF";

export interface MacroCorrelationItem {
  readonly key: MacroCorrelationKey;
  readonly display_name: string;
  readonly value: number | null;
  readonly change_24h_pct: number | null;
  readonly correlation_30d: number | null;
  readonly status: SignalStatus;
  readonly last_updated: string | null;
}

/** Also the `macro.alert` event data (DECISIONS 5). */
export interface MacroAlert {
  readonly alert: "RISK_OFF" | "FED_HAWKISH";
  readonly risk_off_score: number;
  readonly fed_hawkishness: number;
  readonly key_driver: string;
  readonly message: string;
}

export interface MacroCorrelation {
  readonly signals: readonly MacroCorrelationItem[];
  readonly risk_off_score: number;
  readonly fed_hawkishness: number;
  readonly assessment: MacroAssessment;
  readonly alerts: readonly MacroAlert[];
  readonly timestamp: string;
}

export interface MacroCorrelationInput {
  readonly mode: FeedMode;
  readonly at: number;
  readonly series: Readonly<Record<MacroSeriesKey, MacroSeriesPoint | null>>;
  readonly btcNasdaqCorr: SignalReading | null;
}

export const RISK_OFF_ALERT_AT = 70;
export const FED_HAWKISH_ALERT_AT = 70;

const pct = (p: MacroSeriesPoint) =>
  p.previousValue !== null && p.previousValue !== 0 ? (p.value / p.previousValue - 1) * 100 : null;

function refreshOf(key: MacroCorrelationKey, mode: FeedMode): number | null {
  // The Nasdaq-100 close is the same file/provider as BTC_NASDAQ_CORR, so it shares its interval.
  const sigKey = key === "NASDAQ" ? "BTC_NASDAQ_CORR" : key;
  return SIGNAL_CATALOGUE[sigKey].sources[mode]?.refreshMs ?? null;
}

/**
 * Risk-off components, each in [−1, 1] (positive = risk-off), from LIVE series only:
 * Nasdaq daily % change (falling equities), DXY % change (stronger dollar), US10Y change in bp
 * (rising yields), gold % change (flight to safety), VIX level vs 20.
 * risk_off_score = round(50 + 50 · mean(components)); 50 when no input is live.
 */
function riskOffComponents(live: (k: MacroSeriesKey) => MacroSeriesPoint | null): Map<string, number> {
  const out = new Map<string, number>();
  const ndx = live("NASDAQ");
  const dxy = live("DXY");
  const y10 = live("US10Y");
  const gold = live("GOLD");
  const vix = live("VIX");
  const ndxPct = ndx && pct(ndx);
  if (ndxPct !== null && ndxPct !== undefined) out.set("NASDAQ", -Math.tanh(ndxPct / 2));
  const dxyPct = dxy && pct(dxy);
  if (dxyPct !== null && dxyPct !== undefined) out.set("DXY", Math.tanh(dxyPct / 0.5));
  if (y10 && y10.previousValue !== null) out.set("US10Y", Math.tanh(((y10.value - y10.previousValue) * 100) / 10));
  const goldPct = gold && pct(gold);
  if (goldPct !== null && goldPct !== undefined) out.set("GOLD", Math.tanh(goldPct / 1));
  if (vix) out.set("VIX", Math.tanh((vix.value - 20) / 10));
  return out;
}

/**
 * Fed hawkishness (0-100) = round(50 + 30·tanh(Δ US10Y bp / 10) + 20·tanh(Δ fed funds upper bp / 25)),
 * the day-over-day moves of the 10-year yield and of the policy rate (a hike is the spike).
 */
function fedHawkishness(live: (k: MacroSeriesKey) => MacroSeriesPoint | null): { readonly score: number; readonly driver: "US10Y" | "FED_FUNDS" } {
  const y10 = live("US10Y");
  const ff = live("FED_FUNDS");
  const dy = y10 && y10.previousValue !== null ? (y10.value - y10.previousValue) * 100 : 0;
  const dff = ff && ff.previousValue !== null ? (ff.value - ff.previousValue) * 100 : 0;
  const yieldTerm = 30 * Math.tanh(dy / 10);
  const policyTerm = 20 * Math.tanh(dff / 25);
  // The driver is the term that moved the score most: a hike with a small move in yields is the
  // policy rate's doing, not the 10-year's.
  return { score: Math.round(50 + yieldTerm + policyTerm), driver: Math.abs(policyTerm) > Math.abs(yieldTerm) ? "FED_FUNDS" : "US10Y" };
}

export function buildMacroCorrelation(input: MacroCorrelationInput): MacroCorrelation {
  const { at, mode } = input;
  const statusOf = (p: { observedAt: number } | null, refresh: number | null) =>
    signalStatus(p && p.observedAt <= at ? p.observedAt : null, refresh, at);
  // VIX and fed funds come from the same provider families as US10Y (FRED).
  const refreshFor = (k: MacroSeriesKey) =>
    k === "VIX" || k === "FED_FUNDS" ? refreshOf("US10Y", mode) : refreshOf(k as MacroCorrelationKey, mode);
  const live = (k: MacroSeriesKey) => {
    const p = input.series[k];
    return p && statusOf(p, refreshFor(k)) === "LIVE" ? p : null;
  };
  const item = (key: Exclude<MacroCorrelationKey, "BTC_NASDAQ_CORR">, name: string): MacroCorrelationItem => {
    const p = input.series[key];
    const known = p && p.observedAt <= at ? p : null;
    // Published at 4 decimals, as the service's other percentages and correlations: 16 digits of a
    // day-over-day change claim a precision the quotes do not have. The scores read them unrounded.
    return {
      key,
      display_name: name,
      value: known?.value ?? null,
      change_24h_pct: known ? roundOrNull(pct(known)) : null,
      correlation_30d: roundOrNull(known?.correlation30d ?? null),
      status: statusOf(known, refreshOf(key, mode)),
      last_updated: known ? new Date(known.observedAt).toISOString() : null,
    };
  };
  const corr = input.btcNasdaqCorr && input.btcNasdaqCorr.observedAt <= at ? input.btcNasdaqCorr : null;
  const signals: MacroCorrelationItem[] = [
    item("US10Y", SIGNAL_CATALOGUE.US10Y.displayName),
    item("DXY", SIGNAL_CATALOGUE.DXY.displayName),
    item("GOLD", SIGNAL_CATALOGUE.GOLD.displayName),
    item("NASDAQ", "Nasdaq-100"),
    {
      key: "BTC_NASDAQ_CORR",
      display_name: SIGNAL_CATALOGUE.BTC_NASDAQ_CORR.displayName,
      value: roundOrNull(corr?.value ?? null),
      // A correlation's percent change means nothing; DECISIONS 4 gives it no 30-day correlation either.
      change_24h_pct: null,
      correlation_30d: null,
      status: statusOf(corr, refreshOf("BTC_NASDAQ_CORR", mode)),
      last_updated: corr ? new Date(corr.observedAt).toISOString() : null,
    },
  ];
  const components = riskOffComponents(live);
  const values = [...components.values()];
  const riskOff = values.length === 0 ? 50 : Math.round(50 + (50 * values.reduce((a, b) => a + b, 0)) / values.length);
  const { score: hawk, driver: hawkDriver } = fedHawkishness(live);
  const driver = [...components.entries()].sort((a, b) => Math.abs(b[1]) - Math.abs(a[1]))[0]?.[0] ?? "NONE";
  const assessment: MacroAssessment = riskOff >= 60 ? "RISK_OFF" : riskOff <= 40 ? "RISK_ON" : "NEUTRAL";
  const alerts: MacroAlert[] = [];
  if (riskOff >= RISK_OFF_ALERT_AT) {
    alerts.push({
      alert: "RISK_OFF",
      risk_off_score: riskOff,
      fed_hawkishness: hawk,
      key_driver: driver,
      message: `Risk-Off Score ${riskOff} (≥ ${RISK_OFF_ALERT_AT}), driven most by ${driver}.`,
    });
  }
  if (hawk >= FED_HAWKISH_ALERT_AT) {
    alerts.push({
      alert: "FED_HAWKISH",
      risk_off_score: riskOff,
      fed_hawkishness: hawk,
      key_driver: hawkDriver,
      message: `Fed hawkishness ${hawk} (≥ ${FED_HAWKISH_ALERT_AT}), driven most by ${hawkDriver === "US10Y" ? "the 10-year yield" : "the policy rate"}.`,
    });
  }
  return { signals, risk_off_score: riskOff, fed_hawkishness: hawk, assessment, alerts, timestamp: new Date(at).toISOString() };
}
