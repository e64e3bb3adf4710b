import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createKey, startService, type RunningService } from "../../support/service.js";

interface Issue {
  loc: (string | number)[];
  msg: string;
  type: string;
}

/**
 * SPEC types `page`, `per_page` (and DECISIONS 7 the candles' `limit`) as integers, and DECISIONS
 * 2 answers an invalid query parameter 422. A number coerced with `Number()` let `0x10` through as
 * page 16, `1e2` as 100, a blank as 0 ("too small") and a padded " 5" as 5: only decimal digits
 * are integers here.
 */
describe("integer query parameters", () => {
  let svc: RunningService;
  let pro: string;

  beforeAll(async () => {
    svc = await startService();
    pro = await createKey(svc, "pro");
  });
  afterAll(() => svc.stop());

  const get = (path: string) => fetch(`${svc.url}${path}`, { headers: { "x-api-key": pro } });

  it("refuses hexadecimal, exponent, blank and padded numbers with 422 naming the parameter", async () => {
    const cases: [string, string][] = [
      ["/v1/signals/history?page=0x10", "page"],
      ["/v1/signals/history?per_page=1e2", "per_page"],
      ["/v1/signals/history?per_page=", "per_page"],
      ["/v1/regime/history?page=%205", "page"],
      ["/v1/regime/history?per_page=10.0", "per_page"],
      ["/v1/market/candles?asset=BTC&limit=0b11", "limit"],
    ];
    for (const [path, name] of cases) {
      const res = await get(path);
      const body = (await res.json()) as { detail: Issue[] };
      expect({ path, status: res.status }).toEqual({ path, status: 422 });
      expect(body.detail).toHaveLength(1);
      expect(body.detail[0]?.loc).toEqual(["query", name]);
      expect(body.detail[0]?.msg).toMatch(/integer/);
    }
  });

  it("still reads decimal digits, and names the range when a written integer is out of it", async () => {
    const ok = await get("/v1/signals/history?page=2&per_page=007");
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ page: 2, per_page: 7 });
    const negative = (await (await get("/v1/signals/history?page=-1")).json()) as { detail: Issue[] };
    expect(negative.detail).toEqual([{ loc: ["query", "page"], msg: "Input should be greater than or equal to 1", type: "greater_than_equal" }]);
    const big = (await (await get("/v1/signals/history?per_page=501")).json()) as { detail: Issue[] };
    expect(big.detail).toEqual([{ loc: ["query", "per_page"], msg: "Input should be less than or equal to 500", type: "less_than_equal" }]);
    const candles = (await (await get("/v1/market/candles?asset=BTC&limit=100000")).json()) as { detail: Issue[] };
    expect(candles.detail[0]?.msg).toMatch(/^Input should be less than or equal to \d+$/);
    // Past the integers JSON carries exactly: the bound, said once.
    const huge = (await (await get("/v1/signals/history?page=9007199254740993")).json()) as { detail: Issue[] };
    expect(huge.detail).toEqual([{ loc: ["query", "page"], msg: `Input should be less than or equal to ${Number.MAX_SAFE_INTEGER}`, type: "less_than_equal" }]);
  });
});
