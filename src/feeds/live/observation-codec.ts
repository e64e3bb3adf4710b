import { z } from "zod";
import { MACRO_SERIES_KEYS } from "../../domain/signals/macro-series.js";
import { NETWORK_FIGURE_KEYS, type NetworkFigure } from "../../domain/signals/network-figures.js";
import type { ObservedValue } from "../../domain/signals/asset-features.js";
import type { Candle, SignalReading } from "../../domain/signals/reading.js";
import { ASSETS, SIGNAL_KEYS, type Asset } from "../../domain/signals/signal-keys.js";
import type { LiveObservation } from "../../store/ports/live-observations.js";
import type { DailySeriesKey, DailyValue } from "./live-macro-series.js";

/** What one shared observation is, once read back and validated. */
export type DecodedObservation =
  | { readonly kind: "reading"; readonly reading: SignalReading }
  | { readonly kind: "candle"; readonly asset: Asset; readonly bar: Candle }
  | { readonly kind: "series"; readonly key: DailySeriesKey; readonly day: DailyValue }
  | { readonly kind: "figure"; readonly figure: NetworkFigure }
  | { readonly kind: "spot"; readonly asset: Asset; readonly spot: ObservedValue };

const finite = z.number().finite();
const valueSource = z.object({ value: finite, source: z.string().min(1).max(200) });
const bar = z.object({ o: finite, h: finite, l: finite, c: finite, v: finite });
const seriesValue = z.object({ value: finite });
const spotValue = z.object({ value: finite.positive(), observedAt: z.number().int().nonnegative() });

const SERIES_KEYS: readonly DailySeriesKey[] = [...MACRO_SERIES_KEYS, "BTC"];

export function readingObservation(r: SignalReading): LiveObservation {
  return { stream: `reading:${r.key}`, at: r.observedAt, payload: JSON.stringify({ value: r.value, source: r.source }) };
}

export function candleObservation(asset: Asset, b: Candle): LiveObservation {
  return { stream: `candle:${asset}`, at: b.t, payload: JSON.stringify({ o: b.o, h: b.h, l: b.l, c: b.c, v: b.v }) };
}

/**
 * The price of the hourly bar still forming, as a poll saw it. One row per asset and bar (`at` is
 * the bar's open), rewritten by each poll within the hour, so the log holds 24 a day, not 1,440.
 */
export function spotObservation(asset: Asset, barOpen: number, spot: ObservedValue): LiveObservation {
  return { stream: `spot:${asset}`, at: barOpen, payload: JSON.stringify({ value: spot.value, observedAt: spot.observedAt }) };
}

export function seriesObservation(key: DailySeriesKey, d: DailyValue): LiveObservation {
  return { stream: `series:${key}`, at: d.day, payload: JSON.stringify({ value: d.value }) };
}

export function figureObservation(f: NetworkFigure): LiveObservation {
  return { stream: `figure:${f.key}`, at: f.observedAt, payload: JSON.stringify({ value: f.value, source: f.source }) };
}

function isOneOf<T extends string>(values: readonly T[], v: string): v is T {
  return (values as readonly string[]).includes(v);
}

function parsePayload<S extends z.ZodType>(schema: S, payload: string): z.infer<S> | null {
  try {
    const parsed = schema.safeParse(JSON.parse(payload));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/**
 * Reads one row back. Null for anything this version does not know or cannot validate (a stream
 * an older or newer process wrote, a damaged payload): it is skipped, never guessed at.
 */
export function decodeObservation(o: LiveObservation): DecodedObservation | null {
  const sep = o.stream.indexOf(":");
  const kind = o.stream.slice(0, sep);
  const key = o.stream.slice(sep + 1);
  if (!Number.isSafeInteger(o.at)) return null;
  if (kind === "reading" && isOneOf(SIGNAL_KEYS, key)) {
    const p = parsePayload(valueSource, o.payload);
    return p && { kind, reading: { key, value: p.value, observedAt: o.at, source: p.source } };
  }
  if (kind === "candle" && isOneOf(ASSETS, key)) {
    const p = parsePayload(bar, o.payload);
    return p && { kind, asset: key, bar: { t: o.at, ...p } };
  }
  if (kind === "spot" && isOneOf(ASSETS, key)) {
    const p = parsePayload(spotValue, o.payload);
    return p && { kind, asset: key, spot: { value: p.value, observedAt: p.observedAt } };
  }
  if (kind === "series" && isOneOf(SERIES_KEYS, key)) {
    const p = parsePayload(seriesValue, o.payload);
    return p && { kind, key, day: { day: o.at, value: p.value } };
  }
  if (kind === "figure" && isOneOf(NETWORK_FIGURE_KEYS, key)) {
    const p = parsePayload(valueSource, o.payload);
    return p && { kind, figure: { key, value: p.value, observedAt: o.at, source: p.source } };
  }
  return null;
}
