import { z } from "zod";
import type { SignalReading } from "../../domain/signals/reading.js";
import type { Clock } from "../../runtime/clocks/clock.js";
import { getJson } from "./http-json.js";
import type { ReadingProvider } from "./reading-provider.js";

export const DERIBIT_URL = "https://www.deribit.com";
const HOUR = 3_600_000;

/** public/get_volatility_index_data: result.data rows are [timestamp, open, high, low, close]. */
const dvolSchema = z.object({
  result: z.object({
    data: z.array(z.tuple([z.number(), z.number(), z.number(), z.number(), z.number()])),
  }),
});

/** public/get_book_summary_by_currency?kind=option: one row per option instrument. */
const bookSchema = z.object({
  result: z.array(
    z.object({
      instrument_name: z.string().regex(/^BTC-\w+-\d+(?:d\d+)?-[CP]$/),
      open_interest: z.number().nonnegative(),
      creation_timestamp: z.number(),
    }),
  ),
});

/** Deribit public API: DVOL, put/call open-interest ratio and total options open interest (BTC). */
export class DeribitProvider implements ReadingProvider {
  readonly id = "deribit";

  constructor(
    private readonly clock: Clock,
    private readonly baseUrl = DERIBIT_URL,
    private readonly timeoutMs = 10_000,
  ) {}

  async poll(): Promise<readonly SignalReading[]> {
    const [dvol, options] = await Promise.all([this.dvol(), this.options()]);
    return [...dvol, ...options];
  }

  private async dvol(): Promise<SignalReading[]> {
    const end = this.clock.now();
    const url =
      `${this.baseUrl}/api/v2/public/get_volatility_index_data?currency=BTC` +
      `&start_timestamp=${end - 3 * HOUR}&end_timestamp=${end}&resolution=3600`;
    const body = await getJson(this.id, url, dvolSchema, { timeoutMs: this.timeoutMs });
    const last = body.result.data.reduce<(typeof body.result.data)[number] | undefined>(
      (a, row) => (a === undefined || row[0] > a[0] ? row : a),
      undefined,
    );
    if (!last) return [];
    // A row is stamped with its hour's start; its close is known at the end of that hour (or now).
    return [{ key: "DVOL", value: last[4], observedAt: Math.min(end, last[0] + HOUR), source: this.id }];
  }

  private async options(): Promise<SignalReading[]> {
    const url = `${this.baseUrl}/api/v2/public/get_book_summary_by_currency?currency=BTC&kind=option`;
    const body = await getJson(this.id, url, bookSchema, { timeoutMs: this.timeoutMs });
    let puts = 0;
    let calls = 0;
    let newest = 0;
    for (const row of body.result) {
      if (row.instrument_name.endsWith("-P")) puts += row.open_interest;
      else calls += row.open_interest;
      newest = Math.max(newest, row.creation_timestamp);
    }
    if (body.result.length === 0) return [];
    const observedAt = Math.min(this.clock.now(), newest);
    const out: SignalReading[] = [{ key: "OPTIONS_OI", value: puts + calls, observedAt, source: this.id }];
    // With no call open interest the ratio is undefined; report nothing rather than Infinity.
    if (calls > 0) out.push({ key: "PUT_CALL_RATIO", value: puts / calls, observedAt, source: this.id });
    return out;
  }
}
