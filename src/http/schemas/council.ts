import { z } from "zod";
import { RULINGS, SOL_RULINGS, TAO_RULINGS } from "../../domain/market/vocabulary.js";
import { TAO_RISK_FLAGS } from "../../domain/council/tao-risk-flags.js";
import { cacheFields, intLiteral, orNull } from "./common.js";
import { agentConfidence, agentsConfidenceBasisSchema, confidenceBasisSchema, explanationSourceSchema, rawAgentConfidence } from "./judiciary.js";

const unit = z.number().min(0).max(1);

/** `GET /v1/council/latest` (SPEC "BTC council session"). */
export const btcCouncilSessionSchema = z
  .object({
    ruling: z.enum(RULINGS),
    confidence: unit,
    confidence_basis: confidenceBasisSchema,
    consensus: z.enum(["BULLISH", "BEARISH", "NEUTRAL", "SPLIT"]),
    score: z.number().min(-100).max(100),
    agents: z.array(
      z.object({
        agent: z.string(),
        ruling: z.enum(RULINGS),
        confidence: agentConfidence,
        raw_confidence: rawAgentConfidence,
        confidence_basis: confidenceBasisSchema,
        thesis: z.string(),
      }),
    ),
    agents_confidence_basis: agentsConfidenceBasisSchema,
    agents_failed: z.number().int().min(0).max(6),
    session_at: z.string(),
    ...cacheFields,
  })
  .meta({ id: "BtcCouncilSession" });

function agentVotes<const K extends readonly string[], R extends readonly [string, ...string[]]>(keys: K, rulings: R) {
  const vote = z.object({ ruling: z.enum(rulings), confidence: agentConfidence, rawConfidence: rawAgentConfidence, confidenceBasis: confidenceBasisSchema });
  return z.object(Object.fromEntries(keys.map((k) => [k, vote])) as { [P in K[number]]: typeof vote });
}

const TAO_AGENTS = ["SUBNET_ORACLE", "MACRO_SAGE", "AI_NARRATIVE", "MOMENTUM_HUNTER", "LIQUIDITY_GUARDIAN", "RISK_WARDEN"] as const;
const SOL_AGENTS = ["NETWORK_SENTINEL", "MACRO_SAGE", "ECOSYSTEM_ANALYST", "MOMENTUM_HUNTER", "LIQUIDITY_GUARDIAN", "RISK_WARDEN"] as const;

/** TAO verdict (SPEC "TAO verdict"); entry requires confidence ≥ 0.72. */
export const taoVerdictSchema = z
  .object({
    id: z.uuid(),
    ruling: z.enum(TAO_RULINGS),
    confidence: unit,
    confidenceBasis: confidenceBasisSchema,
    agentVotes: agentVotes(TAO_AGENTS, TAO_RULINGS),
    agentVotesConfidenceBasis: agentsConfidenceBasisSchema,
    riskFlags: z.array(z.enum(TAO_RISK_FLAGS)),
    chiefRationale: z.string().nullable(),
    plainExplanation: z.string().nullable(),
    explanationSource: explanationSourceSchema,
    snapshotSignals: z.object({ tao_price: z.number(), rsi_1h: z.number(), ema_200: z.number() }),
    createdAt: z.string(),
  })
  .meta({ id: "TaoVerdict" });

/** `latestVerdict` in TAO status: the verdict without id, rationale, explanation and snapshot. */
/** `POST /v1/tao/council/run` and `GET /v1/tao/council` (DECISIONS 4: same envelope). */
export const taoCouncilRunSchema = z
  .object({
    success: z.boolean().describe("true when a verdict is returned, false when none exists yet"),
    verdict: orNull(taoVerdictSchema),
    detail: z.string().nullable().describe("note on trigger status"),
  })
  .meta({ id: "TaoCouncilRun" });

/** 503 body when the stored TAO verdict cannot be read (SPEC Errors, DECISIONS 2). */
export const taoCouncilUnavailableSchema = z
  .object({ error: z.literal("tao_council_unavailable"), message: z.string() })
  .meta({ id: "TaoCouncilUnavailable" });

/** SOL verdict; snapshot values without a real source are null, never invented (DECISIONS 4). */
export const solVerdictSchema = z
  .object({
    id: z.uuid(),
    ruling: z.enum(SOL_RULINGS),
    confidence: unit,
    confidenceBasis: confidenceBasisSchema,
    agentVotes: agentVotes(SOL_AGENTS, SOL_RULINGS),
    agentVotesConfidenceBasis: agentsConfidenceBasisSchema,
    chiefRationale: z.string().nullable(),
    plainExplanation: z.string().nullable(),
    explanationSource: explanationSourceSchema,
    snapshotSignals: z.object({
      sol_price: z.number().nullable(),
      rsi_1h: z.number().nullable(),
      ema_200: z.number().nullable(),
      sol_network_tps: z.number().nullable(),
      sol_defi_tvl_trend: z.number().nullable(),
      sol_staking_participation: z.number().nullable(),
    }),
    createdAt: z.string(),
  })
  .meta({ id: "SolVerdict" });

/** `GET /v1/sol/council`. */
export const solCouncilResponseSchema = z
  .object({
    verdict: orNull(solVerdictSchema),
    nextRefreshMinutes: intLiteral(30),
    ...cacheFields,
  })
  .meta({ id: "SolCouncil" });

/** `council.new` event data (SPEC Events plus `asset`, DECISIONS 7). */
export const councilNewDataSchema = z
  .object({
    asset: z.enum(["BTC", "TAO", "SOL"]),
    ruling: z.enum(TAO_RULINGS),
    confidence: unit,
    consensus_level: z.enum(["UNANIMOUS", "STRONG", "MODERATE", "SPLIT"]),
    agents_succeeded: z.number().int().min(0).max(6),
  })
  .meta({ id: "CouncilNewData" });
