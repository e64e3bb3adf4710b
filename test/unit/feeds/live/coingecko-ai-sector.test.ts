import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CoinGeckoAiSectorProvider } from "../../../../src/feeds/live/coingecko-ai-sector.js";
import { ProviderError } from "../../../../src/feeds/live/provider-error.js";
import { FakeProviderServer } from "./fake-provider-server.js";

/** /api/v3/coins/categories in CoinGecko's documented shape (three of its ~600 categories). */
function categories(ai: Record<string, unknown> = {}) {
  return [
    {
      id: "layer-1",
      name: "Layer 1 (L1)",
      market_cap: 2_061_406_861_196.14,
      market_cap_change_24h: -0.66091235190398,
      content: "",
      top_3_coins_id: ["bitcoin", "ethereum", "binancecoin"],
      top_3_coins: ["https://assets.coingecko.com/coins/images/1/small/bitcoin.png"],
      volume_24h: 61_146_432_400.17,
      updated_at: "2026-05-01T11:55:46.402Z",
    },
    {
      id: "artificial-intelligence",
      name: "Artificial Intelligence (AI)",
      market_cap: 28_493_512_302.47,
      market_cap_change_24h: -3.4218,
      content: "",
      top_3_coins_id: ["bittensor", "render-token", "near"],
      top_3_coins: [],
      volume_24h: 3_102_448_210.55,
      updated_at: "2026-05-01T11:58:21.100Z",
      ...ai,
    },
    // A category CoinGecko has no figures for yet: nulls must not reject the answer.
    { id: "brand-new", name: "Brand New", market_cap: null, market_cap_change_24h: null, content: null, top_3_coins_id: [], top_3_coins: [], volume_24h: null, updated_at: null },
  ];
}

describe("CoinGeckoAiSectorProvider on a local HTTP server", () => {
  let server: FakeProviderServer;
  beforeAll(async () => {
    server = await FakeProviderServer.start();
  });
  afterAll(async () => {
    await server.close();
  });

  it("reads the artificial-intelligence category's 24 h market-cap change, stamped with CoinGecko's update time", async () => {
    server.script({ body: categories() });
    expect(await new CoinGeckoAiSectorProvider(server.url).poll()).toEqual([
      { key: "AI_SECTOR_CHANGE_24H", value: -3.4218, observedAt: Date.parse("2026-05-01T11:58:21.100Z"), source: "coingecko-ai-sector" },
    ]);
    expect(server.requests).toEqual(["/api/v3/coins/categories"]);
  });

  it.each([
    ["a null change for the AI category", { body: categories({ market_cap_change_24h: null }) }],
    ["a change below −100 %", { body: categories({ market_cap_change_24h: -140 }) }],
    ["an update time that is not ISO 8601", { body: categories({ updated_at: "yesterday" }) }],
    ["no AI category", { body: categories().filter((c) => c.id !== "artificial-intelligence") }],
    ["an object instead of the list", { body: { status: { error_code: 10005, error_message: "upgrade" } } }],
    ["a body that is not JSON", { raw: "<html>Cloudflare</html>" }],
  ])("rejects %s as malformed, passing nothing on", async (_name, answer) => {
    server.script(answer);
    const err = await new CoinGeckoAiSectorProvider(server.url).poll().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderError);
    expect((err as ProviderError).kind).toBe("malformed");
  });

  it("treats 429 (with Retry-After) and 5xx as transient", async () => {
    server.script({ status: 429, body: { status: { error_code: 429, error_message: "rate limit" } }, headers: { "retry-after": "30" } });
    expect(await new CoinGeckoAiSectorProvider(server.url).poll().catch((e: unknown) => e)).toMatchObject({ kind: "rate_limited", retryAfterMs: 30_000, retryable: true });
    server.script({ status: 503, body: {} });
    expect(await new CoinGeckoAiSectorProvider(server.url).poll().catch((e: unknown) => e)).toMatchObject({ kind: "http", status: 503, retryable: true });
  });

  it("times out a provider that does not answer", async () => {
    server.script({ delayMs: 1_000, body: categories() });
    expect(await new CoinGeckoAiSectorProvider(server.url, 100).poll().catch((e: unknown) => e)).toMatchObject({ kind: "timeout" });
  });
});
