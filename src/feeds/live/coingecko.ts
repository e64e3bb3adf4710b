import { z } from "zod";
import type { SignalReading } from "../../domain/signals/reading.js";
import { getJson } from "./http-json.js";
import type { ReadingProvider } from "./reading-provider.js";

export const COINGECKO_URL = "https://api.coingecko.com";

/** GET /api/v3/global: market_cap_percentage in %, updated_at in Unix seconds. */
const globalSchema = z.object({
  data: z.object({
    market_cap_percentage: z.object({ btc: z.number().min(0).max(100) }),
    updated_at: z.number().int().positive(),
  }),
});

/** BTC_DOMINANCE from CoinGecko's global market data (no replay source exists). */
export class CoinGeckoDominanceProvider implements ReadingProvider {
  readonly id = "coingecko";

  constructor(
    private readonly baseUrl = COINGECKO_URL,
    private readonly timeoutMs = 10_000,
  ) {}

  async poll(): Promise<readonly SignalReading[]> {
    const body = await getJson(this.id, `${this.baseUrl}/api/v3/global`, globalSchema, { timeoutMs: this.timeoutMs });
    return [
      {
        key: "BTC_DOMINANCE",
        value: body.data.market_cap_percentage.btc,
        observedAt: body.data.updated_at * 1000,
        source: this.id,
      },
    ];
  }
}
