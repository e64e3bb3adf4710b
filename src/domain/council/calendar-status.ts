/**
 * macro_calendar status values (SPEC). Declared here rather than imported from the signals
 * module so the council does not depend on how the calendar is computed.
 */
export type CalendarStatusValue = "CLEAR" | "WATCH" | "WARNING" | "BLACKOUT";
