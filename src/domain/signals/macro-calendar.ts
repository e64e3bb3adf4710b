/** Economic-calendar tiers and status (SPEC "macro_calendar", DECISIONS 7). */
export type CalendarTier = "TIER1" | "TIER2" | "TIER3";
export type CalendarStatusValue = "CLEAR" | "WATCH" | "WARNING" | "BLACKOUT";

export interface CalendarEvent {
  readonly name: string;
  readonly tier: CalendarTier;
  /** Release time, ms since epoch (UTC). */
  readonly at: number;
}

export interface MacroCalendarStatus {
  readonly tier: CalendarTier | "NONE";
  readonly event_name: string | null;
  readonly hours_until: number;
  readonly is_active: boolean;
  readonly status: CalendarStatusValue;
  /**
   * Up to when the calendar lists every TIER1 release: the earliest of each TIER1 kind's last
   * listed release (ISO), null with no TIER1 event. After it a release of that kind may be
   * missing, so CLEAR no longer rules out a TIER1 day.
   */
  readonly complete_until: string | null;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
export const ACTIVE_BEFORE_MS = 30 * MINUTE;
export const ACTIVE_AFTER_MS = 60 * MINUTE;

/** DECISIONS 7: FOMC decision, CPI, payrolls are TIER1; FOMC minutes, PCE, GDP TIER2; the rest TIER3. */
export function tierOf(eventName: string): CalendarTier {
  const n = eventName.toLowerCase();
  if (n.includes("fomc minutes")) return "TIER2";
  if (tier1Kind(eventName) !== null) return "TIER1";
  if (/\bpce\b|personal consumption|\bgdp\b|gross domestic product/.test(n)) return "TIER2";
  return "TIER3";
}

/** The three TIER1 kinds, each released on its own schedule. */
function tier1Kind(eventName: string): "fomc" | "cpi" | "payrolls" | null {
  const n = eventName.toLowerCase();
  if (n.includes("fomc minutes")) return null;
  if (/\bfomc\b.*decision/.test(n)) return "fomc";
  if (/\bcpi\b|consumer price index/.test(n)) return "cpi";
  if (/nonfarm payrolls|employment situation/.test(n)) return "payrolls";
  return null;
}

/**
 * The earliest of each TIER1 kind's last listed release: up to it, every TIER1 day is in the
 * calendar. The bundled calendar lists FOMC decisions through 2026 but CPI and payrolls only
 * through 2026-02 (its README), which this makes visible instead of reading as CLEAR.
 */
export function calendarCompleteUntil(events: readonly CalendarEvent[]): number | null {
  const last = new Map<string, number>();
  for (const e of events) {
    const kind = tier1Kind(e.name);
    if (kind !== null) last.set(kind, Math.max(last.get(kind) ?? e.at, e.at));
  }
  return last.size === 0 ? null : Math.min(...last.values());
}

function utcDay(ms: number): number {
  return Math.floor(ms / DAY);
}

/**
 * Calendar status at `now` from events sorted by time. `is_active` from 30 min before to 60 min
 * after a TIER1/TIER2 release; BLACKOUT on the UTC day of a TIER1 event; WARNING when a TIER1 or
 * TIER2 event is under 24 h away; WATCH under 72 h; else CLEAR. tier/event_name/hours_until
 * describe the active event, else the next one (NONE, null, 0 when the calendar has no more).
 */
export function calendarStatus(events: readonly CalendarEvent[], now: number): MacroCalendarStatus {
  const highImpact = (e: CalendarEvent) => e.tier !== "TIER3";
  const active = events.find((e) => highImpact(e) && now >= e.at - ACTIVE_BEFORE_MS && now <= e.at + ACTIVE_AFTER_MS);
  const next = events.find((e) => e.at > now);
  const blackout = events.some((e) => e.tier === "TIER1" && utcDay(e.at) === utcDay(now));
  const nextHigh = events.find((e) => highImpact(e) && e.at > now);
  const untilHigh = nextHigh ? nextHigh.at - now : Number.POSITIVE_INFINITY;
  const status: CalendarStatusValue = blackout
    ? "BLACKOUT"
    : untilHigh < DAY
      ? "WARNING"
      : untilHigh < 3 * DAY
        ? "WATCH"
        : "CLEAR";
  const shown = active ?? next;
  const completeUntil = calendarCompleteUntil(events);
  const complete_until = completeUntil === null ? null : new Date(completeUntil).toISOString();
  if (!shown) return { tier: "NONE", event_name: null, hours_until: 0, is_active: false, status, complete_until };
  return {
    tier: shown.tier,
    event_name: shown.name,
    hours_until: active ? 0 : Math.round(((shown.at - now) / HOUR) * 100) / 100,
    is_active: active !== undefined,
    status,
    complete_until,
  };
}
