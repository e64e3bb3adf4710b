import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createKey, startService, type RunningService } from "../../support/service.js";
import { btcVerdictSchema } from "../../../src/http/schemas/judiciary.js";
import { btcCouncilSessionSchema, solCouncilResponseSchema, taoCouncilRunSchema } from "../../../src/http/schemas/council.js";
import { cacheFields } from "../../../src/http/schemas/common.js";

const MIN = 60_000;
const call = (svc: RunningService, path: string, key: string, method = "GET") => fetch(`${svc.url}${path}`, { method, headers: { "x-api-key": key } });

/** Every judiciary and council route after a 2-day warm-up on the bundled data, judiciary mode. */
describe("verdict and council routes after a 2-day warm-up", () => {
  let svc: RunningService;
  let keys: Record<"free" | "basic" | "pro", string>;
  let now = 0;

  beforeAll(async () => {
    svc = await startService({ REPLAY_WARMUP_DAYS: "2" });
    keys = { free: await createKey(svc, "free"), basic: await createKey(svc, "basic"), pro: await createKey(svc, "pro") };
    now = svc.service.deps.marketClock.now();
  }, 120_000);
  afterAll(() => svc.stop());

  it("GET /v1/verdict/latest: a Free key gets the newest BTC verdict with the council's fields", async () => {
    const res = await call(svc, "/v1/verdict/latest", keys.free);
    expect(res.status).toBe(200);
    const body = btcVerdictSchema.parse(await res.json());
    const at = Date.parse(body.timestamp);
    // Evaluated within the last 5-minute slot of market time, at the BTC close of that time.
    expect(at).toBeLessThanOrEqual(svc.service.deps.marketClock.now());
    expect(at).toBeGreaterThan(now - 10 * MIN);
    expect(body.btc_price).toBe(svc.service.deps.feed.assetFeatures("BTC", at).price.value);
    expect(body.confidence).toBeGreaterThan(0);
    expect(body.macro_context?.assessment).toMatch(/RISK_ON|NEUTRAL|RISK_OFF/);
    // No provider configured: the council ran in judiciary mode.
    expect(body.council_mode).toBe("judiciary");
    expect(body.agents).toHaveLength(6);
    expect(body.council_explanation?.length).toBeGreaterThan(20);
    expect(body.cache_ttl_seconds).toBe(60);
    // The engine read the regime the RegimeActor had published by then.
    const stored = await svc.service.store.verdicts.latest("BTC", at);
    const regime = await svc.service.store.regimeHistory.latestAtOrBefore(at);
    expect(regime).not.toBeNull();
    expect(stored?.verdict.regime).toBe(regime?.report.regime);
  });

  it("GET /v1/council/latest: Pro only; the newest BTC session with six agents", async () => {
    expect((await call(svc, "/v1/council/latest", keys.basic)).status).toBe(403);
    const res = await call(svc, "/v1/council/latest", keys.pro);
    expect(res.status).toBe(200);
    const body = btcCouncilSessionSchema.parse(await res.json());
    expect(body.agents.map((a) => a.agent)).toEqual(["CHAIN ORACLE", "MACRO SAGE", "SENTIMENT MONK", "TECH HAWK", "LIQUIDITY GUARDIAN", "RISK SHIELD"]);
    expect(Date.parse(body.session_at) % (30 * MIN)).toBe(0);
    // Calibrated (issue 16): a no-skill judiciary-mode council sits near the base rate of its direction.
    expect(body.confidence).toBeGreaterThan(0.35);
    expect(body.confidence).toBeLessThan(0.65);
    expect(body.cache_ttl_seconds).toBe(60);
  });

  it("GET /v1/sol/council: the SOL verdict with its real snapshot, refresh every 30 minutes", async () => {
    const res = await call(svc, "/v1/sol/council", keys.pro);
    expect(res.status).toBe(200);
    const body = solCouncilResponseSchema.parse(await res.json());
    expect(body.nextRefreshMinutes).toBe(30);
    expect(body.verdict?.snapshotSignals.sol_price).toBeGreaterThan(0);
    expect(body.verdict?.snapshotSignals.sol_network_tps).toBeNull();
    // Indicators shown at 2 decimals (real ones: RSI of hourly closes is never a round number).
    for (const key of ["rsi_1h", "ema_200", "sol_defi_tvl_trend"] as const) expectTwoDecimals(body.verdict?.snapshotSignals[key], key);
    expect(Object.keys(body.verdict?.agentVotes ?? {})).toHaveLength(6);
  });

  it("GET /v1/tao/council and POST /v1/tao/council/run: the stored TAO verdict; the run is limited to 5 a minute", async () => {
    const get = await call(svc, "/v1/tao/council", keys.pro);
    expect(get.status).toBe(200);
    const stored = taoCouncilRunSchema.extend(cacheFields).parse(await get.json());
    expect(stored.success).toBe(true);
    expect(stored.verdict?.snapshotSignals.tao_price).toBeGreaterThan(0);
    for (const key of ["rsi_1h", "ema_200"] as const) expectTwoDecimals(stored.verdict?.snapshotSignals[key], key);
    expect(stored.detail).toMatch(/refreshes every 30 minutes/);
    for (let i = 0; i < 5; i++) {
      const run = await call(svc, "/v1/tao/council/run", keys.pro, "POST");
      expect(run.status).toBe(200);
      const body = taoCouncilRunSchema.parse(await run.json());
      expect(body.success).toBe(true);
      expect(body.verdict?.id).toMatch(/^[0-9a-f-]{36}$/);
    }
    const limited = await call(svc, "/v1/tao/council/run", keys.pro, "POST");
    expect(limited.status).toBe(429);
    expect(((await limited.json()) as { detail: { error: string } }).detail.error).toBe("rate_limit_exceeded");
  });
});

/** A published indicator: a real figure, at most 2 decimals. */
function expectTwoDecimals(x: number | null | undefined, what: string): void {
  expect(typeof x, what).toBe("number");
  expect(Number((x as number).toFixed(2)), what).toBe(x);
}
