import { dailyMacroSeries, macroPointAt, type DailyMacroSeries, type MacroSeriesKey, type MacroSeriesPoint } from "../../domain/signals/macro-series.js";

const DAY = 86_400_000;
/**
 * Days kept per series: 30 paired returns on US trading days need about 45 calendar days, and the
 * providers fetch 2-3 months; more would only be trimmed again.
 */
const RETENTION_DAYS = 120;

/** One completed UTC day's value; `day` is that day's 00:00 UTC. */
export interface DailyValue {
  readonly day: number;
  readonly value: number;
}

/** The macro series, plus BTC's daily closes that their 30-day correlation pairs with. */
export type DailySeriesKey = MacroSeriesKey | "BTC";

/** Where a provider hands over the daily history it fetched, once its whole poll has succeeded. */
export interface DailySeriesSink {
  record(key: DailySeriesKey, days: readonly DailyValue[]): void;
}

/**
 * The live feed's daily macro series. Each delivery is merged by day (a later fetch revises a day,
 * a shorter fetch does not erase older days), so a failed or partial poll leaves what is known in
 * place. Reads go through the same domain functions as replay, hence the same observability
 * (a row from the next 00:00 UTC) and the same correlation.
 */
export class LiveMacroSeriesStore implements DailySeriesSink {
  private readonly raw = new Map<DailySeriesKey, Map<number, number>>();
  private readonly readable = new Map<MacroSeriesKey, DailyMacroSeries>();

  record(key: DailySeriesKey, days: readonly DailyValue[]): void {
    const byDay = this.raw.get(key) ?? new Map<number, number>();
    for (const d of days) {
      // Pairing with BTC is by exact UTC day start; anything else could never pair and only mislead.
      if (d.day % DAY === 0 && Number.isFinite(d.value)) byDay.set(d.day, d.value);
    }
    const newest = Math.max(...byDay.keys());
    for (const day of byDay.keys()) if (day < newest - RETENTION_DAYS * DAY) byDay.delete(day);
    this.raw.set(key, byDay);
    // New BTC closes can complete pairs of every series, not only of the one delivered.
    const stale = key === "BTC" ? [...this.readable.keys()] : [key];
    for (const k of stale) this.rebuild(k);
  }

  /** The value of the UTC day starting at `dayStart`; NaN when none is known. */
  valueOn(key: DailySeriesKey, dayStart: number): number {
    return this.raw.get(key)?.get(dayStart) ?? Number.NaN;
  }

  at(key: MacroSeriesKey, at: number): MacroSeriesPoint | null {
    const series = this.readable.get(key);
    return series ? macroPointAt(key, series, at) : null;
  }

  /**
   * The newest row of `key` whose 30-day correlation with BTC can be computed, when it becomes
   * observable: BTC_NASDAQ_CORR as replay reads it. While BTC's newest closes are missing it is
   * the last day they cover, so the figure ages instead of being guessed.
   */
  newestCorrelation(key: MacroSeriesKey): { readonly value: number; readonly observedAt: number } | null {
    const series = this.readable.get(key);
    if (!series) return null;
    const i = series.correlation30d.findLastIndex((c) => !Number.isNaN(c));
    return i < 0 ? null : { value: series.correlation30d[i] as number, observedAt: series.observableAt[i] as number };
  }

  private rebuild(key: MacroSeriesKey): void {
    const rows = [...(this.raw.get(key) ?? new Map<number, number>())].sort((a, b) => a[0] - b[0]);
    if (rows.length === 0) return;
    const series = dailyMacroSeries(
      Float64Array.from(rows, (r) => r[0]),
      Float64Array.from(rows, (r) => r[1]),
      (day) => this.valueOn("BTC", day),
    );
    this.readable.set(key, series);
  }
}
