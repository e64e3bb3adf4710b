import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createKey, startService, type RunningService } from "../../support/service.js";
import { waitFor } from "../../support/wait-for.js";
import { judiciaryCapability } from "../../../src/composition/capabilities/judiciary.js";
import { marketDataCapability } from "../../../src/composition/capabilities/market-data.js";
import { solCouncilResponseSchema, taoCouncilRunSchema } from "../../../src/http/schemas/council.js";
import { btcVerdictSchema } from "../../../src/http/schemas/judiciary.js";
import { VerdictActor } from "../../../src/actors/verdict-actor.js";
import { modelSession } from "../../unit/council/fixtures.js";

const call = (svc: RunningService, path: string, key: string, method = "GET") => fetch(`${svc.url}${path}`, { method, headers: { "x-api-key": key } });

/**
 * Before any verdict or session exists: the service with the judiciary capability's actors
 * registered but not scheduled, so nothing is produced until something asks for it.
 */
describe("verdict and council routes before any data exists", () => {
  let svc: RunningService;
  let pro: string;

  beforeAll(async () => {
    svc = await startService({}, { capabilities: [marketDataCapability, { ...judiciaryCapability, start: async () => undefined }] });
    pro = await createKey(svc, "pro");
  }, 120_000);
  afterAll(() => svc.stop());

  it("BTC verdict and BTC council answer 503 warming_up, not an invented ruling", async () => {
    for (const path of ["/v1/verdict/latest", "/v1/council/latest"]) {
      const res = await call(svc, path, pro);
      expect(res.status).toBe(503);
      const body = (await res.json()) as { detail: { error: string; message: string } };
      expect(body.detail.error).toBe("warming_up");
      expect(body.detail.message).toMatch(/every (5|30) market minutes/);
    }
  });

  it("SOL council answers verdict null; TAO council answers success false (SPEC's empty shapes)", async () => {
    const sol = solCouncilResponseSchema.parse(await (await call(svc, "/v1/sol/council", pro)).json());
    expect(sol).toMatchObject({ verdict: null, nextRefreshMinutes: 30 });
    const tao = taoCouncilRunSchema.parse(await (await call(svc, "/v1/tao/council", pro)).json());
    expect(tao).toMatchObject({ success: false, verdict: null });
    expect(tao.detail).toMatch(/No TAO council verdict exists yet/);
  });

  it("POST /v1/tao/council/run returns at once without a verdict and nudges the TAO council, which then stores one", async () => {
    const res = await call(svc, "/v1/tao/council/run", pro, "POST");
    expect(res.status).toBe(200);
    const body = taoCouncilRunSchema.parse(await res.json());
    expect(body).toMatchObject({ success: false, verdict: null });
    expect(body.detail).toMatch(/refresh of the current slot was requested/);
    const session = await waitFor(async () => (await svc.service.store.councilSessions.latest("TAO")) ?? undefined, 10_000, "the nudged TAO session");
    expect(session.asset).toBe("TAO");
    const after = taoCouncilRunSchema.parse(await (await call(svc, "/v1/tao/council/run", pro, "POST")).json());
    expect(after.success).toBe(true);
    expect(after.verdict?.id).toBe(session.id);
    // No other council was asked.
    expect(await svc.service.store.councilSessions.latest("BTC")).toBeNull();
  });

  it("a TAO session deliberated without TAO's price, RSI or EMA-200 is not shown as a verdict (SPEC's numbers are never invented), and is no 500", async () => {
    const nudged = await svc.service.store.councilSessions.latest("TAO");
    if (nudged === null) throw new Error("the nudge test above stores a TAO session");
    const at = svc.service.deps.marketClock.now();
    await svc.service.store.councilSessions.save({ ...nudged, id: "tao-no-readings", at, snapshotSignals: { tao_price: null, rsi_1h: null, ema_200: null } });
    const res = await call(svc, "/v1/tao/council/run", pro, "POST");
    expect(res.status).toBe(200);
    const body = taoCouncilRunSchema.parse(await res.json());
    expect(body).toMatchObject({ success: false, verdict: null });
    expect(body.detail).toMatch(/had no TAO price, RSI or EMA-200 reading/);
  });

  it("the BTC verdict names no council when the newest session is hours old (SPEC: null when no recent council verdict exists), and says council_mode judiciary", async () => {
    const now = svc.service.deps.marketClock.now();
    await svc.service.store.councilSessions.save(modelSession(now - 3 * 3_600_000, true));
    await svc.service.deps.host.proxy(VerdictActor, "BTC").ensureScheduled();
    const body = await waitFor(async () => {
      const res = await call(svc, "/v1/verdict/latest", pro);
      return res.status === 200 && ((await res.json()) as Record<string, unknown>);
    }, 30_000, "the first BTC verdict");
    btcVerdictSchema.parse(body);
    expect(body).toMatchObject({ council_ruling: null, council_confidence: null, council_explanation: null, agents: null });
    // SPEC's state table: "verdict freshness shows no recent council verdict" is what moves
    // council_mode to judiciary; null is kept for "no council data exists", and a session exists.
    expect(body.council_mode).toBe("judiciary");
    expect(body.ruling).toEqual(expect.any(String));
  });
});
