import type { LiquidityStatus } from "./bar-input.js";

/**
 * SPEC gate "session": no entries from Friday 22:00 to Sunday 06:00 Europe/Prague (thin weekend
 * books), except during 00:00-04:00 local when the liquidity probe says SUFFICIENT. Prague time
 * comes from the IANA zone, so the CET/CEST switch is handled by the runtime's tz data.
 */
const PRAGUE = new Intl.DateTimeFormat("en-GB", {
  timeZone: "Europe/Prague",
  weekday: "short",
  hour: "2-digit",
  minute: "2-digit",
  hourCycle: "h23",
});

export interface LocalTime {
  /** 0 = Sunday … 6 = Saturday. */
  readonly weekday: number;
  readonly hour: number;
  readonly minute: number;
}

const WEEKDAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];

export function pragueTime(ms: number): LocalTime {
  let weekday = -1;
  let hour = -1;
  let minute = -1;
  for (const part of PRAGUE.formatToParts(new Date(ms))) {
    if (part.type === "weekday") weekday = WEEKDAYS.indexOf(part.value);
    else if (part.type === "hour") hour = Number(part.value);
    else if (part.type === "minute") minute = Number(part.value);
  }
  if (weekday < 0 || hour < 0 || minute < 0) throw new RangeError(`cannot read Prague time of ${ms}`);
  return { weekday, hour, minute };
}

export function inWeekendBlock(ms: number): boolean {
  const { weekday, hour } = pragueTime(ms);
  if (weekday === 5) return hour >= 22;
  if (weekday === 6) return true;
  if (weekday === 0) return hour < 6;
  return false;
}

/** True when the session gate passes at `ms`. */
export function sessionOpen(ms: number, liquidity: LiquidityStatus): boolean {
  if (!inWeekendBlock(ms)) return true;
  const { hour } = pragueTime(ms);
  return hour < 4 && liquidity === "SUFFICIENT";
}
