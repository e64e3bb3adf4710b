import { z } from "zod";
import { loadConfig } from "../../src/config/env.js";
import { buildService } from "../../src/composition/build-service.js";
import { deliberate } from "../../src/domain/council/deliberate.js";
import { defineRoute, type Route } from "../../src/http/route.js";
import type { AppDeps } from "../../src/http/app-deps.js";
import { councilAdvisorFromEnv } from "../../src/llm/advisor-from-env.js";
import type { LlmSessionSummary } from "../../src/llm/council-sessions.js";
import { councilInputAt } from "../../src/application/judiciary-inputs.js";
import { benchRoutes } from "../http/cached-route.js";

/**
 * The service in its own process with the keyed cached bench route, plus a bench-only trigger
 * that runs one BTC council session against the language model inside this same process (the
 * advisor the service itself would build from LLM_* settings), so the HTTP path and the session
 * share an event loop and a host as in production. The service's own councils stay in judiciary
 * mode (no LLM_* in its configuration) so only the measured session talks to the model.
 * argv: baseUrl apiKey model. Prints {port, key} once listening.
 */
const [baseUrl, apiKey, model] = process.argv.slice(2);
if (!baseUrl || !apiKey || !model) {
  process.stderr.write("usage: target.ts <llm base url> <api key> <model>\n");
  process.exit(2);
}

const sessionResult = z.object({
  done: z.boolean(),
  mode: z.string().nullable(),
  agents_succeeded: z.number().nullable(),
  calls: z.number(),
  prompt_tokens: z.number(),
  completion_tokens: z.number(),
  ms: z.number(),
});

let running: Promise<void> | null = null;
let summary: LlmSessionSummary | null = null;

function councilRoutes(deps: AppDeps): Route[] {
  const source = councilAdvisorFromEnv(
    { LLM_BASE_URL: baseUrl, LLM_API_KEY: apiKey, LLM_MODEL: model, LLM_SESSION_BUDGET_MS: 180_000 },
    { telemetry: { call: () => undefined, session: (s) => (summary = s), attempt: () => undefined } },
  );
  if (source === null) throw new Error("no advisor");
  const view = () => ({
    done: summary !== null,
    mode: summary?.mode ?? null,
    agents_succeeded: summary?.agentsSucceeded ?? null,
    calls: summary?.calls ?? 0,
    prompt_tokens: summary?.promptTokens ?? 0,
    completion_tokens: summary?.completionTokens ?? 0,
    ms: summary?.ms ?? 0,
  });
  return [
    defineRoute({
      method: "post",
      path: "/v1/bench/council-session",
      summary: "benchmark: start one BTC council session with the model",
      tags: ["bench"],
      access: { kind: "public" },
      response: sessionResult,
      handler: async () => {
        summary = null;
        running = (async () => {
          const lease = await source.open("BTC");
          const outcome = await deliberate(councilInputAt(deps.feed, "BTC", deps.marketClock.now(), null), { advisor: lease.advisor, newId: () => "bench" });
          lease.close(outcome.kind === "session" ? outcome.session : null);
        })();
        running.catch((err: unknown) => process.stderr.write(`council session failed: ${String(err)}\n`));
        return view();
      },
    }),
    defineRoute({
      method: "get",
      path: "/v1/bench/council-session",
      summary: "benchmark: the session's outcome once done",
      tags: ["bench"],
      access: { kind: "public" },
      response: sessionResult,
      handler: async () => view(),
    }),
  ];
}

const config = loadConfig({
  STORE_URL: "sqlite::memory:",
  PORT: "0",
  HOST: "127.0.0.1",
  LOG_LEVEL: "silent",
  REPLAY_WARMUP_DAYS: "0",
  QUOTA_PRO_PER_DAY: "1000000000",
  RATE_LIMIT_PRO_PER_MINUTE: "1000000000",
});
const service = await buildService(config, { routeSets: [benchRoutes, councilRoutes] });
const port = await service.listen();
await service.warmedUp;
const issued = await service.deps.keyIssuer.create("pro", "bench", null);
process.stdout.write(`${JSON.stringify({ port, key: issued.apiKey })}\n`);
process.on("SIGTERM", () => {
  void service.stop().then(() => process.exit(0));
});
