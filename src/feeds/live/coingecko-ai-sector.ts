import { z } from "zod";
import type { NetworkFigure } from "../../domain/signals/network-figures.js";
import { COINGECKO_URL } from "./coingecko.js";
import type { FigureProvider } from "./figure-provider.js";
import { getJson } from "./http-json.js";
import { ProviderError } from "./provider-error.js";

export const AI_CATEGORY_ID = "artificial-intelligence";

/**
 * GET /api/v3/coins/categories: every category, most fields nullable. Only the id is required of
 * all of them, so an odd unrelated category cannot reject the answer; the AI one is checked in full.
 */
const categoriesSchema = z.array(z.looseObject({ id: z.string() }));

/** market_cap_change_24h is in % (−0.66 means −0.66 %); updated_at is ISO 8601. */
const aiCategorySchema = z.object({
  id: z.literal(AI_CATEGORY_ID),
  market_cap_change_24h: z.number().gt(-100),
  updated_at: z.iso.datetime({ offset: true }),
});

/**
 * AI-sector sentiment for the TAO council: the 24 h market-cap change of CoinGecko's
 * "artificial-intelligence" category, stamped with CoinGecko's own update time.
 */
export class CoinGeckoAiSectorProvider implements FigureProvider {
  readonly id = "coingecko-ai-sector";
  readonly keys = ["AI_SECTOR_CHANGE_24H"] as const;

  constructor(
    private readonly baseUrl = COINGECKO_URL,
    private readonly timeoutMs = 15_000,
  ) {}

  async poll(): Promise<readonly NetworkFigure[]> {
    const categories = await getJson(this.id, `${this.baseUrl}/api/v3/coins/categories`, categoriesSchema, { timeoutMs: this.timeoutMs });
    const raw = categories.find((c) => c.id === AI_CATEGORY_ID);
    if (raw === undefined) throw new ProviderError(this.id, "malformed", `no "${AI_CATEGORY_ID}" category in the answer`);
    const ai = aiCategorySchema.safeParse(raw);
    if (!ai.success) throw new ProviderError(this.id, "malformed", `"${AI_CATEGORY_ID}" category: ${ai.error.issues[0]?.message ?? ""}`);
    return [{ key: "AI_SECTOR_CHANGE_24H", value: ai.data.market_cap_change_24h, observedAt: Date.parse(ai.data.updated_at), source: this.id }];
  }
}
