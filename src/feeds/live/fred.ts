import { z } from "zod";
import type { SignalReading } from "../../domain/signals/reading.js";
import type { Clock } from "../../runtime/clocks/clock.js";
import type { DailySeriesSink } from "./live-macro-series.js";
import { ProviderError } from "./provider-error.js";
import { getText } from "./http-json.js";
import type { ReadingProvider } from "./reading-provider.js";

export const FRED_URL = "https://fred.stlouisfed.org";
const DAY = 86_400_000;
/**
 * Calendar days fetched per series: 30 paired daily returns (the macro correlation) need 31 trading
 * days, about 45 calendar days; 60 leaves room for holidays.
 */
export const FRED_LOOKBACK_DAYS = 60;
/** FRED series id of each macro series this provider delivers. */
const SERIES = { US10Y: "DGS10", VIX: "VIXCLS", FED_FUNDS: "DFEDTARU" } as const;
/** A FRED series' whole CSV is some hundreds of KB; past this a body is not one. */
const MAX_BODY_BYTES = 1_000_000;

/** One fredgraph.csv data line: ISO date, then a number or "." (no observation that day). */
const rowSchema = z.tuple([z.string().regex(/^\d{4}-\d{2}-\d{2}$/), z.union([z.literal("."), z.string().regex(/^-?\d+(\.\d+)?$/)])]);

export interface FredObservation {
  readonly day: number;
  readonly value: number;
}

/**
 * Parses fredgraph.csv (`observation_date,<ID>`; older files say `DATE`). Missing days (".")
 * are dropped; anything else off the documented shape throws a `malformed` ProviderError.
 */
export function parseFredCsv(provider: string, seriesId: string, text: string): FredObservation[] {
  const lines = text.split(/\r?\n/).filter((l) => l.trim() !== "");
  const header = lines[0]?.split(",").map((h) => h.trim());
  if (!header || header.length !== 2 || !["observation_date", "DATE"].includes(header[0] ?? "") || header[1] !== seriesId) {
    throw new ProviderError(provider, "malformed", `CSV header is not observation_date,${seriesId}`);
  }
  const out: FredObservation[] = [];
  for (const line of lines.slice(1)) {
    const parsed = rowSchema.safeParse(line.split(",").map((c) => c.trim()));
    if (!parsed.success) throw new ProviderError(provider, "malformed", `CSV row does not match the documented shape: ${line.slice(0, 80)}`);
    const [date, value] = parsed.data;
    if (value === ".") continue;
    const day = Date.parse(`${date}T00:00:00Z`);
    if (Number.isNaN(day)) throw new ProviderError(provider, "malformed", `bad date ${date}`);
    out.push({ day, value: Number(value) });
  }
  return out.sort((a, b) => a.day - b.day);
}

/**
 * FRED's public series download (no API key needed): the US10Y signal (DGS10), and the daily
 * history of US10Y, VIX (VIXCLS) and the fed funds target upper bound (DFEDTARU) for the macro
 * series, handed to `series` only when all three parsed, so a failed poll changes nothing. A day's
 * yield is stamped at the end of that UTC day, as in replay.
 */
export class FredProvider implements ReadingProvider {
  readonly id = "fred";

  constructor(
    private readonly clock: Clock,
    private readonly series: DailySeriesSink,
    private readonly baseUrl = FRED_URL,
    private readonly timeoutMs = 15_000,
  ) {}

  async poll(): Promise<readonly SignalReading[]> {
    const now = this.clock.now();
    const from = new Date(now - FRED_LOOKBACK_DAYS * DAY).toISOString().slice(0, 10);
    // A row dated after today is not an observation (a data error); it must not become "the latest".
    const fetchRows = async (id: string) =>
      parseFredCsv(this.id, id, await getText(this.id, `${this.baseUrl}/graph/fredgraph.csv?id=${id}&cosd=${from}`, "text/csv", { timeoutMs: this.timeoutMs, maxBodyBytes: MAX_BODY_BYTES })).filter(
        (row) => row.day <= now,
      );
    const [us10y, vix, fedFunds] = await Promise.all([fetchRows(SERIES.US10Y), fetchRows(SERIES.VIX), fetchRows(SERIES.FED_FUNDS)]);
    this.series.record("US10Y", us10y);
    this.series.record("VIX", vix);
    this.series.record("FED_FUNDS", fedFunds);
    const last = us10y[us10y.length - 1];
    if (!last) return [];
    return [{ key: "US10Y", value: last.value, observedAt: Math.min(now, last.day + DAY), source: this.id }];
  }
}
