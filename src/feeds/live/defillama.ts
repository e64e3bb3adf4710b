import { z } from "zod";
import type { SignalReading } from "../../domain/signals/reading.js";
import type { Clock } from "../../runtime/clocks/clock.js";
import { getJson } from "./http-json.js";
import type { ReadingProvider } from "./reading-provider.js";

export const DEFILLAMA_STABLECOINS_URL = "https://stablecoins.llama.fi";
const DAY = 86_400_000;

/** stablecoincharts/all: daily points, `date` in Unix seconds (a string in the API's answers). */
const chartSchema = z.array(
  z.object({
    date: z.union([z.string().regex(/^\d+$/), z.number().int()]).transform(Number),
    totalCirculatingUSD: z.object({ peggedUSD: z.number().nonnegative() }).partial(),
  }),
);

/** STABLECOIN_MINT = 7-day change of total USD-pegged supply (USD mn), as in replay. */
export class DefiLlamaStablecoinProvider implements ReadingProvider {
  readonly id = "defillama";

  constructor(
    private readonly clock: Clock,
    private readonly baseUrl = DEFILLAMA_STABLECOINS_URL,
    private readonly timeoutMs = 15_000,
  ) {}

  async poll(): Promise<readonly SignalReading[]> {
    const points = await getJson(this.id, `${this.baseUrl}/stablecoincharts/all`, chartSchema, { timeoutMs: this.timeoutMs });
    const byDay = new Map<number, number>();
    for (const p of points) {
      const usd = p.totalCirculatingUSD.peggedUSD;
      if (usd !== undefined) byDay.set(p.date * 1000, usd);
    }
    const latestDay = Math.max(...byDay.keys());
    const latest = byDay.get(latestDay);
    const weekAgo = byDay.get(latestDay - 7 * DAY);
    if (latest === undefined || weekAgo === undefined) return [];
    // A finished day's value is observed at the end of that UTC day, as in replay (and every other
    // daily source; stamped at its start, the same point carried a time 24 h earlier live than
    // replayed); today's running value is observed now.
    const observedAt = Math.min(latestDay + DAY, this.clock.now());
    return [{ key: "STABLECOIN_MINT", value: (latest - weekAgo) / 1e6, observedAt, source: this.id }];
  }
}
