import { defineRoute, type Route } from "../route.js";
import type { AppDeps } from "../app-deps.js";
import { ApiError } from "../error-codes.js";
import { btcVerdictSchema } from "../schemas/judiciary.js";
import { councilModeAt, isRecentSession } from "../../domain/council/council-mode.js";
import { confidenceBasisView, verdictCouncilFields } from "../../domain/council/session-views.js";
import { calendarStatus } from "../../domain/signals/macro-calendar.js";
import type { Ruling, TaoRuling } from "../../domain/market/vocabulary.js";

/** BTC's engine and council use the seven-value scale; an AVOID here would be a bug, not data. */
function btcRuling(r: TaoRuling): Ruling {
  if (r === "AVOID") throw new Error("a BTC ruling of AVOID was stored; BTC rulings never include AVOID");
  return r;
}

/** SPEC.md Limits: verdict 60 s. */
const TTL = 60;

/**
 * `GET /v1/verdict/latest`: the newest stored BTC Judiciary verdict as of market time, with the
 * newest BTC council session's fields and `council_mode` inferred at response time (DECISIONS 7).
 * Before the first verdict: 503 warming_up, never an invented ruling.
 */
export function verdictRoutes(deps: AppDeps): Route[] {
  const { store, feed, marketClock } = deps;
  return [
    defineRoute({
      method: "get",
      path: "/v1/verdict/latest",
      summary: "Latest BTC verdict: Judiciary Engine ruling with the council's view",
      tags: ["verdict"],
      access: { kind: "key", tier: "free" },
      response: btcVerdictSchema,
      cacheTtlSeconds: TTL,
      errors: ["warming_up"],
      handler: async () => {
        const now = marketClock.now();
        const [stored, session, modelSession] = await Promise.all([
          store.verdicts.latest("BTC", now),
          store.councilSessions.latest("BTC", now),
          store.councilSessions.latestWithModel("BTC", now),
        ]);
        if (stored === null) throw new ApiError("warming_up", { message: "No BTC verdict has been evaluated yet: the Judiciary Engine rules every 5 market minutes while BTC's price is live." });
        const v = stored.verdict;
        const blackout = calendarStatus(feed.calendarEvents(), now).status === "BLACKOUT";
        const mode = councilModeAt(
          { lastSession: session && { at: session.at, mode: session.mode }, lastModelSessionAt: modelSession?.at ?? null },
          now,
          blackout,
        );
        // SPEC: the council fields are null when no recent council verdict exists.
        const recent = session !== null && isRecentSession(session.at, now, blackout) ? session : null;
        const council = verdictCouncilFields(recent, mode);
        return {
          ruling: btcRuling(v.ruling),
          confidence: v.confidence,
          score: v.score,
          // The price the verdict was evaluated at, not a later one.
          btc_price: feed.assetFeatures("BTC", stored.at).price.value ?? 0,
          timestamp: new Date(stored.at).toISOString(),
          confidence_basis: confidenceBasisView(v.calibration, v.ruling),
          ...council,
          council_ruling: council.council_ruling && btcRuling(council.council_ruling),
          agents: council.agents?.map((a) => ({ ...a, vote: btcRuling(a.vote) })) ?? null,
          macro_context: v.macroContext && { ...v.macroContext },
        };
      },
    }),
  ];
}
