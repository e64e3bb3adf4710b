import { z } from "zod";
import { tierOf, type CalendarEvent } from "../../domain/signals/macro-calendar.js";
import { parseTime } from "./csv-table.js";

const rowSchema = z.object({
  date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  event: z.string().min(1),
  time_utc: z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/),
  status: z.enum(["held", "scheduled"]),
});

/** Parses the bundled US economic calendar (106 rows: validated row by row with zod). */
export function parseCalendar(text: string): CalendarEvent[] {
  const lines = text.split("\n").filter((l) => l.trim() !== "");
  const header = (lines[0] ?? "").split(",");
  const events = lines.slice(1).map((line, i) => {
    const cells = line.split(",");
    const raw = Object.fromEntries(header.map((h, k) => [h, cells[k] ?? ""]));
    const row = rowSchema.parse(raw, { error: () => `calendar line ${i + 2} is malformed` });
    return { name: row.event, tier: tierOf(row.event), at: parseTime(row.time_utc, "timestamp") };
  });
  return events.sort((a, b) => a.at - b.at);
}
