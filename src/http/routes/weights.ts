import { defineRoute, type Route } from "../route.js";
import type { AppDeps } from "../app-deps.js";
import { agentPerformanceSchema, signalWeightsQuerySchema, signalWeightsSchema } from "../schemas/weights.js";
import { weightsView } from "../../domain/weights/update-weights.js";
import { agentPerformance, type CouncilSessionVotes } from "../../domain/weights/agent-accuracy.js";
import { countedUnderSprints } from "../../domain/ghost/sprints.js";

/** TTLs: SPEC Limits (signal weights 300 s, agent performance 3600 s). */
const TTL = { weights: 300, agents: 3600 } as const;

/** Signal weights (SPEC 10, Pro) and BTC agent accuracy (SPEC 4, Free): both read the store only. */
export function weightsRoutes(deps: AppDeps): Route[] {
  const { store, marketClock } = deps;
  return [
    defineRoute({
      method: "get",
      path: "/v1/signals/weights",
      summary: "Adaptive per-signal, per-regime multipliers",
      description: "Without `regime` every regime is returned and the top-level regime is ALL.",
      tags: ["signals"],
      access: { kind: "key", tier: "pro" },
      query: signalWeightsQuerySchema,
      response: signalWeightsSchema,
      cacheTtlSeconds: TTL.weights,
      errors: ["validation_failed"],
      handler: async ({ query }) => {
        const view = weightsView(await store.signalWeights.all(), query.regime, new Date(marketClock.now()).toISOString());
        return { ...view, weights: [...view.weights] };
      },
    }),
    defineRoute({
      method: "get",
      path: "/v1/agents/performance",
      summary: "BTC council agents' directional accuracy over closed Ghost trades",
      tags: ["council"],
      access: { kind: "key", tier: "free" },
      response: agentPerformanceSchema,
      cacheTtlSeconds: TTL.agents,
      handler: async () => {
        const now = marketClock.now();
        const [trades, marks] = await Promise.all([store.ghostLedger.closed("BTC"), store.ghostLedger.sprints()]);
        const counted = countedUnderSprints(trades, marks).filter((t) => t.exitTime <= now);
        const ids = [...new Set(counted.filter((t) => t.triggerKind === "council" && t.triggerId !== null).map((t) => t.triggerId as string))];
        const sessions = store.councilSessions;
        const found = await Promise.all(ids.map((id) => sessions.byId(id)));
        const votes: CouncilSessionVotes[] = found
          .filter((s) => s !== null)
          .map((s) => ({ sessionId: s.id, votes: s.votes.map((v) => ({ agent: v.agent, vote: v.ruling })) }));
        const perf = agentPerformance(counted, votes);
        return { ...perf, agents: [...perf.agents] };
      },
    }),
  ];
}
