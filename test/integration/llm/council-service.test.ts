import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CouncilAsset, CouncilSession } from "../../../src/domain/council/council-types.js";
import { btcCouncilSessionSchema, solCouncilResponseSchema, taoCouncilRunSchema } from "../../../src/http/schemas/council.js";
import { btcVerdictSchema } from "../../../src/http/schemas/judiciary.js";
import { captureLogger } from "../../support/capture-logger.js";
import { LLAMA_MODEL, startLlamaServer, type LlamaServer } from "../../support/llama-server.js";
import { createKey, startService, type RunningService } from "../../support/service.js";
import { waitFor } from "../../support/wait-for.js";

type BtcVerdict = ReturnType<typeof btcVerdictSchema.parse>;

/**
 * The service as an operator runs it with LLM_BASE_URL pointing at a real llama-server: council
 * mode from real model sessions after the warm-up, and a clean judiciary fallback (a logged
 * reason, every route answering) when the key is wrong or the server hangs.
 */

let llama: LlamaServer;

/** The suite polls routes for minutes: a Pro key's 1,000 a minute would end the wait in 429s. */
const GENEROUS_LIMITS = { RATE_LIMIT_PRO_PER_MINUTE: "100000", QUOTA_PRO_PER_DAY: "10000000" };

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

/** Waits until each council has logged a session that asked the model and fell back to judiciary mode. */
async function fellBackOnEveryCouncil(log: ReturnType<typeof captureLogger>, ms: number): Promise<void> {
  await waitFor(
    async () => {
      const assets = new Set(log.lines.filter((l) => l.msg === "council session fell back to judiciary mode").map((l) => l.asset));
      return assets.has("BTC") && assets.has("TAO") && assets.has("SOL");
    },
    ms,
    "a session of every council that asked the model and fell back",
    500,
  );
}

describe("the service with LLM_BASE_URL pointing at llama-server", () => {
  it(
    "after the default warm-up, /v1/council/latest, /v1/sol/council, /v1/tao/council and the verdict's council_* fields come from real model sessions",
    async () => {
      const log = captureLogger();
      const started = Date.now();
      // REPLAY_SPEED 10: a council slot (30 market minutes) is 3 wall minutes, and council_mode's 45
      // market minutes are 4.5. At the default 60 a slot is 30 s while one SmolLM2 session on these
      // cores takes 20-120 s, so the three councils could not each get the model every slot and
      // council mode would come and go (docs/engines.md, "The language model").
      const svc = await startService(
        { LLM_BASE_URL: llama.baseUrl, LLM_MODEL: LLAMA_MODEL, LLM_API_KEY: llama.apiKey, REPLAY_WARMUP_DAYS: "14", REPLAY_SPEED: "10", METRICS_PORT: "0", ...GENEROUS_LIMITS },
        { logger: log.logger },
      );
      try {
        const warmMs = Date.now() - started;
        const key = await createKey(svc, "pro");
        // Warm-up sessions ran without the model (DECISIONS 1 and docs/engines.md): judiciary content first.
        const [btc0] = await sessionsStored(svc, ["BTC"]);
        expect(btc0?.mode).toBe("judiciary");
        // Each council's route serves a session in which the model answered. With one model slot
        // per process (LLM_MAX_CONCURRENT_SESSIONS=1) the three councils take turns, a council
        // that finds the model busy for its whole budget deliberates by rule, and a session in
        // which no reply passed validation is a judiciary one (SmolLM2 left none in SOL's
        // sessions more often than not in CI, 2026-12-04). So a council's council-mode session
        // may be the newest for one slot only: the three routes are polled together, and each is
        // checked the first time it serves one. Polled every 2 s (the routes cache for 60 s).
        /** What each route served first in council mode, and when (ms after start). */
        const seen: Partial<Record<CouncilAsset, { body: unknown; stored: CouncilSession; verdict?: BtcVerdict; afterMs: number }>> = {};
        const pathOf = (asset: CouncilAsset) => (asset === "BTC" ? "/v1/council/latest" : asset === "SOL" ? "/v1/sol/council" : "/v1/tao/council");
        await waitFor(
          async () => {
            for (const asset of ["BTC", "TAO", "SOL"] as const) {
              if (seen[asset] !== undefined) continue;
              const res = await get(svc, pathOf(asset), key);
              if (res.status !== 200) continue;
              const id = asset === "BTC" ? btcCouncilSessionSchema.parse(res.body).session_at : asset === "SOL" ? solCouncilResponseSchema.parse(res.body).verdict?.id : taoCouncilRunSchema.parse(res.body).verdict?.id;
              const stored = await svc.service.store.councilSessions.latest(asset);
              if (stored?.mode !== "council" || id !== (asset === "BTC" ? new Date(stored.at).toISOString() : stored.id)) continue;
              if (asset !== "BTC") {
                seen[asset] = { body: res.body, stored, afterMs: Date.now() - started };
              } else {
                // The verdict's council_* fields follow the newest BTC session in which the model
                // answered, while it is at most 45 market minutes old (4.5 wall minutes here):
                // read together with the route, while that session is fresh.
                const v = await get(svc, "/v1/verdict/latest", key);
                if (v.status !== 200) continue;
                const verdict = btcVerdictSchema.parse(v.body);
                if (verdict.council_mode !== "council") continue;
                seen[asset] = { body: res.body, stored, verdict, afterMs: Date.now() - started };
              }
            }
            return seen.BTC !== undefined && seen.TAO !== undefined && seen.SOL !== undefined;
          },
          // Before the thesis rule BTC's first one came after 335, 510 and over 600 s in three CI
          // runs; with it, at 266-508 s in two CI runs and 326-446 s locally. A council slot comes
          // every 180 s, so this wait holds about 14 slots per council: a council whose sessions go
          // without an acceptable reply 6 times in 10 (more than any council measured alone, for
          // the councils share one model slot here) misses all 14 about once in 1,300 runs.
          2_700_000,
          "a council-mode session from the model on each council's route",
          2_000,
        );
        for (const asset of ["BTC", "TAO", "SOL"] as const) expect(seen[asset]?.stored.agentsSucceeded).toBeGreaterThan(0);
        const btc = seen.BTC;
        expect(btc?.verdict?.council_ruling).not.toBeNull();
        const c = btcCouncilSessionSchema.parse(btc?.body);
        expect(c.agents_failed).toBe(btc?.stored.agentsFailed);
        expect(c.agents.map((a) => a.thesis)).toEqual(btc?.stored.votes.map((x) => x.thesis));
        // A session the model answered is not calibrated on council-mode outcomes yet: it says so.
        expect(c.confidence_basis.kind).toBe("base_rate");
        // So does each vote the model cast: its agent's base rate, the model's own figure beside it.
        for (const [i, a] of c.agents.entries()) {
          const vote = btc?.stored.votes[i];
          expect(a.raw_confidence).toBe(vote?.rawConfidence);
          if (vote?.source === "model") expect(a.confidence_basis).toMatchObject({ kind: "base_rate", note: expect.stringMatching(/language model/) });
        }
        // What the operator sees for these sessions.
        const metrics = await metricsOf(svc);
        expect(metrics).toMatch(/mis_llm_tokens_total\{asset="BTC",model="smollm2",direction="completion"\} [1-9]/);
        expect(metrics).toMatch(/mis_council_session_duration_seconds_count\{asset="SOL"\} [1-9]/);
        expect(log.lines.filter((l) => l.msg === "council session" && l.mode === "council").length).toBeGreaterThanOrEqual(3);
        console.info(`council service: warm-up ${warmMs} ms; first council-mode session served after start: BTC ${seen.BTC?.afterMs ?? "-"} ms, TAO ${seen.TAO?.afterMs ?? "-"} ms, SOL ${seen.SOL?.afterMs ?? "-"} ms`);
      } finally {
        await svc.stop();
      }
    },
    // The three councils take turns on one model slot: on this two-core machine their first
    // council-mode sessions came at up to 876 s and 1,111 s (SOL) in two CI runs, against the
    // 1,200 s this test had. Its one wait for the three routes has 2,700 s of this.
    3_300_000,
  );

  it(
    "a wrong API key (401 from the server): judiciary sessions with the reason logged, no route answers 500",
    async () => {
      const log = captureLogger();
      const svc = await startService({ LLM_BASE_URL: llama.baseUrl, LLM_MODEL: LLAMA_MODEL, LLM_API_KEY: "sk-not-the-key", METRICS_PORT: "0", ...GENEROUS_LIMITS }, { logger: log.logger });
      try {
        const key = await createKey(svc, "pro");
        // The warm-up's sessions never ask the model; the first slot after it does (a market half
        // hour: 30 s at speed 60), and every council falls back with the reason logged.
        await fellBackOnEveryCouncil(log, 180_000);
        for (const s of await sessionsStored(svc, ["BTC", "TAO", "SOL"])) expect(s?.mode).toBe("judiciary");
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
        const metrics = await metricsOf(svc);
        expect(metrics).toMatch(/mis_llm_calls_total\{asset="BTC",model="smollm2",outcome="client"\} [1-9]/);
        // Each HTTP attempt is seen as well, with the provider's status.
        expect(metrics).toMatch(/mis_llm_attempts_total\{model="smollm2",outcome="client",status="401"\} [1-9]/);
        const attempt = log.lines.find((l) => l.msg === "llm attempt failed");
        expect(attempt).toMatchObject({ model: LLAMA_MODEL, outcome: "client", status: 401, retrying: false });
      } finally {
        await svc.stop();
      }
    },
    300_000,
  );

  it(
    "a hung server (per-call timeout): sessions end in judiciary mode within their bound, HTTP keeps answering, the reason is logged",
    async () => {
      const log = captureLogger();
      llama.freeze();
      try {
        const started = Date.now();
        const svc = await startService(
          { LLM_BASE_URL: llama.baseUrl, LLM_MODEL: LLAMA_MODEL, LLM_API_KEY: llama.apiKey, LLM_TIMEOUT_MS: "1500", LLM_SESSION_BUDGET_MS: "20000", ...GENEROUS_LIMITS },
          { logger: log.logger },
        );
        try {
          const key = await createKey(svc, "pro");
          // While the first session waits on the hung server, the HTTP path answers at once.
          const health = await fetch(`${svc.url}/v1/health`);
          expect(health.status).toBe(200);
          await expectNoServerErrors(svc, key);
          await fellBackOnEveryCouncil(log, 180_000);
          for (const s of await sessionsStored(svc, ["BTC", "TAO", "SOL"])) expect(s?.mode).toBe("judiciary");
          // Bounded, never hung: each session spent at most its 20 s budget with the model (1 + 2
          // retries of 1.5 s and the back-off), whatever the wall time a loaded host adds around it.
          const fell = log.lines.filter((l) => l.msg === "council session fell back to judiciary mode");
          expect(fell.length).toBeGreaterThanOrEqual(3);
          for (const l of fell) {
            expect(String(l.reason)).toMatch(/no complete reply within 1500 ms/);
            expect(Number(l.ms)).toBeLessThanOrEqual(20_000 + 1_000);
          }
          expect(new Set(fell.map((l) => l.asset))).toEqual(new Set(["BTC", "TAO", "SOL"]));
          console.info(`council service, hung provider: first session of every council stored ${Date.now() - started} ms after start`);
          await expectNoServerErrors(svc, key);
        } finally {
          await svc.stop();
        }
      } finally {
        llama.thaw();
      }
    },
    300_000,
  );
});
