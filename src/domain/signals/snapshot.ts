import { CATALOGUE_IN_ORDER, type FeedMode } from "./catalogue.js";
import type { MacroCalendarStatus } from "./macro-calendar.js";
import type { SignalReading } from "./reading.js";
import { signalStatus } from "./signal-status.js";
import { SIGNAL_KEYS, type SignalCategory, type SignalKey, type SignalStatus } from "./signal-keys.js";

/** One item of GET /v1/signals/latest (SPEC "Signals snapshot"; `category` from DECISIONS 4). */
export interface SignalItem {
  readonly key: SignalKey;
  readonly display_name: string;
  readonly category: SignalCategory;
  /** null only for a signal never observed (DECISIONS 4); a STALE or DEAD one keeps its last value. */
  readonly value: number | null;
  readonly status: SignalStatus;
  readonly last_updated: string | null;
}

/** The snapshot body without the response-cache fields, which the route adds. */
export interface SignalsSnapshot {
  readonly signals: readonly SignalItem[];
  /** 27: the catalogue size, typed as such so the response schema's literal checks at compile time. */
  readonly total_signals: typeof SIGNAL_KEYS.length;
  readonly live_count: number;
  readonly stale_count: number;
  readonly dead_count: number;
  readonly coverage_pct: number;
  readonly macro_calendar: MacroCalendarStatus;
  readonly timestamp: string;
}

export interface SnapshotInput {
  readonly mode: FeedMode;
  /** Market time of the snapshot (replay time in replay mode). */
  readonly at: number;
  readonly readings: ReadonlyMap<SignalKey, SignalReading>;
  readonly calendar: MacroCalendarStatus;
}

/**
 * Builds the signals snapshot: every catalogue signal in catalogue order, its status by the
 * DECISIONS 4 rule against the current mode's source, and the counts. A reading for a signal the
 * mode has no source for is ignored (DEAD), so a stray value can never pass as live.
 */
export function buildSignalsSnapshot(input: SnapshotInput): SignalsSnapshot {
  const signals = CATALOGUE_IN_ORDER.map((def): SignalItem => {
    const source = def.sources[input.mode];
    const reading = source ? input.readings.get(def.key) : undefined;
    // Readings stamped after `at` are not yet known at `at` (a replay must never look ahead).
    const known = reading && reading.observedAt <= input.at ? reading : undefined;
    return {
      key: def.key,
      display_name: def.displayName,
      category: def.category,
      value: known?.value ?? null,
      status: signalStatus(known?.observedAt ?? null, source?.refreshMs ?? null, input.at),
      last_updated: known ? new Date(known.observedAt).toISOString() : null,
    };
  });
  const count = (s: SignalStatus) => signals.filter((i) => i.status === s).length;
  const live = count("LIVE");
  return {
    signals,
    total_signals: SIGNAL_KEYS.length,
    live_count: live,
    stale_count: count("STALE"),
    dead_count: count("DEAD"),
    // One decimal: 17 of 27 live reads 63.0, not 62.96296296296296.
    coverage_pct: Math.round((live / SIGNAL_KEYS.length) * 1000) / 10,
    macro_calendar: input.calendar,
    timestamp: new Date(input.at).toISOString(),
  };
}
