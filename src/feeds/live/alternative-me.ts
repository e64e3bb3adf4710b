import { z } from "zod";
import type { SignalReading } from "../../domain/signals/reading.js";
import { getJson } from "./http-json.js";
import type { ReadingProvider } from "./reading-provider.js";

/** api.alternative.me/fng documented payload; numbers arrive as strings. */
const fngSchema = z.object({
  data: z
    .array(
      z.object({
        value: z.string().regex(/^\d{1,3}$/),
        value_classification: z.string(),
        timestamp: z.string().regex(/^\d+$/),
      }),
    )
    .min(1),
  metadata: z.object({ error: z.string().nullable() }).optional(),
});

export const ALTERNATIVE_ME_URL = "https://api.alternative.me";

/** Crypto Fear & Greed Index from alternative.me (attribution required by the provider). */
export class AlternativeMeProvider implements ReadingProvider {
  readonly id = "alternative.me";

  constructor(
    private readonly baseUrl = ALTERNATIVE_ME_URL,
    private readonly timeoutMs = 10_000,
  ) {}

  async poll(): Promise<readonly SignalReading[]> {
    const body = await getJson(this.id, `${this.baseUrl}/fng/?limit=1`, fngSchema, { timeoutMs: this.timeoutMs });
    const latest = body.data[0];
    if (!latest) return [];
    const value = Number(latest.value);
    if (value > 100) return [];
    return [{ key: "FEAR_GREED_INDEX", value, observedAt: Number(latest.timestamp) * 1000, source: this.id }];
  }
}
