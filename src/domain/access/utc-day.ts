const DAY_MS = 86_400_000;

/** The last day asked for and its text: every keyed request asks, nearly always for today. */
let lastDay = Number.NaN;
let lastText = "";

/** The UTC day (YYYY-MM-DD) of a wall-clock instant, and the next 00:00:00Z after it. */
export function utcDay(ms: number): string {
  const day = Math.floor(ms / DAY_MS);
  if (day !== lastDay) {
    lastText = new Date(day * DAY_MS).toISOString().slice(0, 10);
    lastDay = day;
  }
  return lastText;
}

/** Unix time has no leap seconds: every UTC day is 86,400,000 ms, so midnight is arithmetic. */
export function nextUtcMidnight(ms: number): number {
  return (Math.floor(ms / DAY_MS) + 1) * DAY_MS;
}
