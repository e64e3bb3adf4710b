import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CouncilAsset } from "../../../src/domain/council/council-types.js";
import { btcCouncilSessionSchema, solCouncilResponseSchema, taoCouncilRunSchema } from "../../../src/http/schemas/council.js";
import { btcVerdictSchema } from "../../../src/http/schemas/judiciary.js";
import { captureLogger } from "../../unit/runtime/fixtures/capture-logger.js";
import { LLAMA_MODEL, startLlamaServer, type LlamaServer } from "../../support/llama-server.js";
import { createKey, startService, type RunningService } from "../../support/service.js";
import { waitFor } from "../../support/wait-for.js";

/**
 * The service as an operator runs it with LLM_BASE_URL pointing at a real llama-server: council
 * mode from real model sessions after the warm-up, and a clean judiciary fallback (a logged
 * reason, every route answering) when the key is wrong or the server hangs.
 */

let llama: LlamaServer;

beforeAll(async () => {
  llama = await startLlamaServer();
}, 180_000);

afterAll(async () => {
  await llama?.stop();
});

async function get(svc: RunningService, path: string, key: string): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`${svc.url}${path}`, { headers: { "x-api-key": key } });
  return { status: res.status, body: await res.json() };
}

/** Every GET route without path parameters answers, and none with a 5xx other than 503 warming_up. */
async function expectNoServerErrors(svc: RunningService, key: string): Promise<void> {
  const routes = svc.service.built.routes.filter((r) => r.method === "get" && !r.path.includes("{") && !r.tags.includes("pending"));
  expect(routes.length).toBeGreaterThan(5);
  for (const r of routes) {
    const path = r.path === "/v1/market/candles" ? `${r.path}?asset=BTC` : r.path;
    const res = await fetch(`${svc.url}${path}`, { headers: { "x-api-key": key } });
    await res.arrayBuffer();
    expect(res.status === 500 || (res.status > 503 && res.status < 600), `${path} answered ${res.status}`).toBe(false);
  }
}

/** /metrics lives on its own port (METRICS_PORT). */
async function metricsOf(svc: RunningService): Promise<string> {
  return (await fetch(`http://127.0.0.1:${svc.service.metricsPort()}/metrics`)).text();
}

async function sessionsStored(svc: RunningService, assets: readonly CouncilAsset[]) {
  return Promise.all(assets.map((a) => svc.service.store.councilSessions.latest(a)));
}

describe("the service with LLM_BASE_URL pointing at llama-server", () => {
  it(
    "after the default warm-up, /v1/council/latest, /v1/sol/council, /v1/tao/council and the verdict's council_* fields come from real model sessions",
    async () => {
      const log = captureLogger();
      const started = Date.now();
      const svc = await startService(
        { LLM_BASE_URL: llama.baseUrl, LLM_MODEL: LLAMA_MODEL, LLM_API_KEY: llama.apiKey, REPLAY_WARMUP_DAYS: "14", METRICS_PORT: "0" },
        { logger: log.logger },
      );
      try {
        const warmMs = Date.now() - started;
        const key = await createKey(svc, "pro");
        // Warm-up sessions ran without the model (DECISIONS 1 and docs/engines.md): judiciary content first.
        const [btc0] = await sessionsStored(svc, ["BTC"]);
        expect(btc0?.mode).toBe("judiciary");
        const timings: Record<string, number> = {};
        await waitFor(
          async () => {
            const [btc, tao, sol] = await sessionsStored(svc, ["BTC", "TAO", "SOL"]);
            if (btc?.mode !== "council" || tao?.mode !== "council" || sol?.mode !== "council") return false;
            const council = await get(svc, "/v1/council/latest", key);
            const solRes = await get(svc, "/v1/sol/council", key);
            const taoRes = await get(svc, "/v1/tao/council", key);
            const verdict = await get(svc, "/v1/verdict/latest", key);
            // The routes cache for up to a minute: wait until they show the model sessions.
            const c = btcCouncilSessionSchema.parse(council.body);
            const s = solCouncilResponseSchema.parse(solRes.body);
            const t = taoCouncilRunSchema.parse(taoRes.body);
            const v = btcVerdictSchema.parse(verdict.body);
            if (c.session_at !== new Date(btc.at).toISOString() || s.verdict?.id !== sol.id || t.verdict?.id !== tao.id || v.council_mode !== "council") return false;
            expect(c.agents_failed).toBe(btc.agentsFailed);
            expect(c.agents.map((a) => a.thesis)).toEqual(btc.votes.map((x) => x.thesis));
            expect(v.council_explanation).toBe(btc.plainExplanation);
            expect(v.council_ruling).toBe(btc.ruling);
            timings.allCouncilMs = Date.now() - started;
            return true;
          },
          420_000,
          "council-mode sessions from the model on every council route",
        );
        // What the operator sees for these sessions.
        const metrics = await metricsOf(svc);
        expect(metrics).toMatch(/mis_llm_tokens_total\{asset="BTC",model="smollm2",direction="completion"\} [1-9]/);
        expect(metrics).toMatch(/mis_council_session_duration_seconds_count\{asset="SOL"\} [1-9]/);
        expect(log.lines.filter((l) => l.msg === "council session" && l.mode === "council").length).toBeGreaterThanOrEqual(3);
        console.info(`council service: warm-up ${warmMs} ms; council mode on all three councils ${timings.allCouncilMs} ms after start`);
      } finally {
        await svc.stop();
      }
    },
    600_000,
  );

  it(
    "a wrong API key (401 from the server): judiciary sessions with the reason logged, no route answers 500",
    async () => {
      const log = captureLogger();
      const svc = await startService({ LLM_BASE_URL: llama.baseUrl, LLM_MODEL: LLAMA_MODEL, LLM_API_KEY: "sk-not-the-key", METRICS_PORT: "0" }, { logger: log.logger });
      try {
        const key = await createKey(svc, "pro");
        const sessions = await waitFor(
          async () => {
            const s = await sessionsStored(svc, ["BTC", "TAO", "SOL"]);
            return s.every((x) => x !== null) ? s : false;
          },
          60_000,
          "the first session of every council",
        );
        for (const s of sessions) expect(s?.mode).toBe("judiciary");
        const failed = log.lines.filter((l) => l.msg === "llm call failed");
        expect(failed.length).toBeGreaterThanOrEqual(3);
        for (const l of failed) expect(l).toMatchObject({ outcome: "client", model: LLAMA_MODEL });
        expect(String(failed[0]?.reason)).toMatch(/provider answered 401/);
        // Not retried: a bad key does not improve.
        expect(log.lines.filter((l) => l.msg === "council session fell back to judiciary mode").map((l) => String(l.reason))).toEqual(
          expect.arrayContaining([expect.stringMatching(/401/)]),
        );
        const verdict = await waitFor(async () => {
          const v = await get(svc, "/v1/verdict/latest", key);
          return v.status === 200 ? btcVerdictSchema.parse(v.body) : false;
        }, 30_000, "a BTC verdict");
        expect(verdict.council_mode).toBe("judiciary");
        expect((await get(svc, "/v1/council/latest", key)).status).toBe(200);
        await expectNoServerErrors(svc, key);
        expect(await metricsOf(svc)).toMatch(/mis_llm_calls_total\{asset="BTC",model="smollm2",outcome="client"\} [1-9]/);
      } finally {
        await svc.stop();
      }
    },
    180_000,
  );

  it(
    "a hung server (per-call timeout): sessions end in judiciary mode within their bound, HTTP keeps answering, the reason is logged",
    async () => {
      const log = captureLogger();
      llama.freeze();
      try {
        const started = Date.now();
        const svc = await startService(
          { LLM_BASE_URL: llama.baseUrl, LLM_MODEL: LLAMA_MODEL, LLM_API_KEY: llama.apiKey, LLM_TIMEOUT_MS: "1500", LLM_SESSION_BUDGET_MS: "20000" },
          { logger: log.logger },
        );
        try {
          const key = await createKey(svc, "pro");
          // While the first session waits on the hung server, the HTTP path answers at once.
          const health = await fetch(`${svc.url}/v1/health`);
          expect(health.status).toBe(200);
          await expectNoServerErrors(svc, key);
          const sessions = await waitFor(
            async () => {
              const s = await sessionsStored(svc, ["BTC", "TAO", "SOL"]);
              return s.every((x) => x !== null) ? s : false;
            },
            90_000,
            "the first session of every council despite the hung provider",
          );
          for (const s of sessions) expect(s?.mode).toBe("judiciary");
          // 1 + 2 retries of 1.5 s and the backoff per council, sessions one at a time: well under a minute.
          expect(Date.now() - started).toBeLessThan(60_000);
          const fell = log.lines.filter((l) => l.msg === "council session fell back to judiciary mode");
          expect(fell.length).toBe(3);
          for (const l of fell) expect(String(l.reason)).toMatch(/no complete reply within 1500 ms/);
          await expectNoServerErrors(svc, key);
        } finally {
          await svc.stop();
        }
      } finally {
        llama.thaw();
      }
    },
    180_000,
  );
});
