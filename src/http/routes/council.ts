import { defineRoute, type Route } from "../route.js";
import type { AppDeps } from "../app-deps.js";
import { ApiError } from "../error-codes.js";
import { btcCouncilSessionSchema, solCouncilResponseSchema, solVerdictSchema, taoCouncilRunSchema, taoVerdictSchema } from "../schemas/council.js";
import { cacheFields } from "../schemas/common.js";
import { assetVerdictView, btcCouncilView } from "../../domain/council/session-views.js";
import { livePriceAt } from "../../application/judiciary-inputs.js";
import { nextTurnAt, slotAt } from "../../domain/market/turn-slots.js";
import type { CouncilAsset, CouncilSession } from "../../domain/council/council-types.js";

/** DECISIONS 2: council latest, SOL council and TAO council 60 s. The TAO run POST is not cached. */
const TTL = 60;
const REFRESH_MINUTES = 30 as const;
const RUN_LIMIT = { name: "tao-council-run", limit: 5, windowSeconds: 60 } as const;

const btcBody = btcCouncilSessionSchema.omit({ cached: true, cache_ttl_seconds: true });
const taoCouncilCachedSchema = taoCouncilRunSchema.extend(cacheFields).meta({ id: "TaoCouncil" });

export interface CouncilRouteDeps extends AppDeps {
  /**
   * Asks the asset's council to deliberate if its current 30-minute slot has no session yet
   * (SPEC 13's "internal trigger"); fire-and-forget, the route never waits for a deliberation.
   */
  readonly nudgeCouncil?: (asset: CouncilAsset) => void;
  /** How long after each 30-minute slot its session is held (composition/turn-order.ts); default 0. */
  readonly councilTurnOffsetMs?: number;
}

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * A TAO session deliberated without TAO's price, RSI or EMA-200 (a replay started before TAO's
 * history, a live feed with no TAO bars yet): SPEC's verdict carries them as numbers, and they
 * are never invented, so such a session is not shown as a verdict.
 */
function lacksTaoReadings(s: CouncilSession): boolean {
  const snap = s.snapshotSignals;
  return [snap.tao_price, snap.rsi_1h, snap.ema_200].some((v) => typeof v !== "number");
}

/** The stored TAO session as SPEC's verdict; the schema checks the stored shape on the way out. */
function taoVerdict(s: CouncilSession | null) {
  return s === null || lacksTaoReadings(s) ? null : taoVerdictSchema.parse(assetVerdictView(s));
}

/**
 * The council endpoints: they read the newest stored session as of market time. BTC's answers 503
 * warming_up before the first session; SOL's and TAO's have SPEC-defined empty shapes instead
 * (verdict null, success false).
 */
export function councilRoutes(deps: CouncilRouteDeps): Route[] {
  const { store, marketClock, logger } = deps;
  const pro = { kind: "key", tier: "pro" } as const;

  async function readTao(): Promise<CouncilSession | null> {
    try {
      return await store.councilSessions.latest("TAO", marketClock.now());
    } catch (err) {
      logger.error({ err }, "TAO council verdict could not be read");
      throw new ApiError("tao_council_unavailable");
    }
  }

  /** Whether TAO has a live price now: the council deliberates only then (no refresh is due otherwise). */
  const turnOffset = deps.councilTurnOffsetMs ?? 0;
  const taoPriced = () => livePriceAt(deps.feed, "TAO", marketClock.now()) !== null;

  function detailOf(s: CouncilSession | null, nudged: boolean): string {
    const next = iso(nextTurnAt(marketClock.now() + 1, REFRESH_MINUTES * 60_000, turnOffset));
    const refresh = taoPriced()
      ? `the council refreshes every 30 minutes, next at ${next}`
      : "TAO has no live price (its last hourly bar is over 2 hours old), so the council does not deliberate until it returns";
    const base =
      s === null
        ? "No TAO council verdict exists yet; the council deliberates every 30 minutes of market time while TAO's price is live."
        : lacksTaoReadings(s)
          ? `The latest TAO council session (${iso(s.at)}) had no TAO price, RSI or EMA-200 reading, so it is not shown as a verdict; ${refresh}.`
          : `Latest stored verdict from ${iso(s.at)} (${s.mode} mode); ${refresh}.`;
    return nudged ? `${base} A refresh of the current slot was requested.` : base;
  }

  return [
    defineRoute({
      method: "get",
      path: "/v1/council/latest",
      summary: "Latest BTC council session with every agent's vote",
      tags: ["council"],
      access: pro,
      response: btcCouncilSessionSchema,
      cacheTtlSeconds: TTL,
      errors: ["warming_up"],
      handler: async () => {
        const s = await store.councilSessions.latest("BTC", marketClock.now());
        if (s === null) throw new ApiError("warming_up", { message: "No BTC council session has run yet: the council deliberates every 30 market minutes while BTC's price is live." });
        return btcBody.parse(btcCouncilView(s));
      },
    }),
    defineRoute({
      method: "get",
      path: "/v1/sol/council",
      summary: "Latest SOL council verdict (null before the first session)",
      tags: ["council"],
      access: pro,
      response: solCouncilResponseSchema,
      cacheTtlSeconds: TTL,
      handler: async () => {
        const s = await store.councilSessions.latest("SOL", marketClock.now());
        return { verdict: s === null ? null : solVerdictSchema.parse(assetVerdictView(s)), nextRefreshMinutes: REFRESH_MINUTES };
      },
    }),
    defineRoute({
      method: "post",
      path: "/v1/tao/council/run",
      summary: "Latest TAO council verdict; nudges a refresh of the current slot",
      description:
        "Returns the latest stored verdict and does not itself deliberate (SPEC 13): deliberation runs on the 30-minute schedule. " +
        "If the current 30-minute slot has no session yet, the council is asked to deliberate in the background.",
      tags: ["council"],
      access: { kind: "key", tier: "pro", limits: [RUN_LIMIT] },
      response: taoCouncilRunSchema,
      errors: ["tao_council_unavailable"],
      handler: async () => {
        const s = await readTao();
        const slot = slotAt(marketClock.now(), REFRESH_MINUTES * 60_000, turnOffset);
        // Not while warming up: on Dapr the councils then run on the founder's in-process host,
        // and a session made meanwhile by the Dapr copy would be announced twice (the warm-up
        // copy finds it stored after its own last slot) before the handover overwrote that copy.
        const nudged = deps.nudgeCouncil !== undefined && !marketClock.warmingUp && (s === null || s.at < slot) && taoPriced();
        if (nudged) deps.nudgeCouncil?.("TAO");
        const verdict = taoVerdict(s);
        return { success: verdict !== null, verdict, detail: detailOf(s, nudged) };
      },
    }),
    defineRoute({
      method: "get",
      path: "/v1/tao/council",
      summary: "Latest TAO council verdict (same envelope as the run endpoint)",
      tags: ["council"],
      access: pro,
      response: taoCouncilCachedSchema,
      cacheTtlSeconds: TTL,
      errors: ["tao_council_unavailable"],
      handler: async () => {
        const s = await readTao();
        const verdict = taoVerdict(s);
        return { success: verdict !== null, verdict, detail: detailOf(s, false) };
      },
    }),
  ];
}
