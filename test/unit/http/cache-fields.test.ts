import { describe, expect, it } from "vitest";
import { withCacheFields } from "../../../src/http/router.js";

describe("withCacheFields", () => {
  it("writes the same bytes as serialising the body with the two fields appended", () => {
    const bodies: Record<string, unknown>[] = [
      {},
      { ruling: "HOLD", confidence: 0.62 },
      { nested: { a: [1, 2, { b: null }] }, text: "±5 % \"quoted\" }{", emoji: "🐋" },
    ];
    for (const body of bodies) {
      for (const [cached, ttl] of [[true, 1], [false, 3600]] as const) {
        const spliced = withCacheFields(JSON.stringify(body), cached, ttl);
        expect(spliced).toBe(JSON.stringify({ ...body, cached, cache_ttl_seconds: ttl }));
        expect(JSON.parse(spliced)).toEqual({ ...body, cached, cache_ttl_seconds: ttl });
      }
    }
  });
});
