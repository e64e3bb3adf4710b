import { z } from "zod";
import { REGIMES, RULINGS } from "../../domain/market/vocabulary.js";
import { cacheFields, orNull } from "./common.js";

const unit = z.number().min(0).max(1);
const consensusLevel = z.enum(["UNANIMOUS", "STRONG", "MODERATE", "SPLIT"]);

/** Who wrote a council's explanation (DECISIONS 6): the ruling itself is always computed in code. */
export const explanationSourceSchema = z
  .enum(["model", "template"])
  .describe("model: written by the language model's Chief Judge (it must state the computed ruling); template: written by the service from the votes");

/** How a published confidence was obtained (issue 16; docs/evaluation.md). */
export const confidenceBasisSchema = z
  .object({
    kind: z
      .enum(["isotonic", "base_rate", "prior", "uncalibrated", "abstained"])
      .describe(
        "isotonic: fitted on outcomes that showed skill; base_rate: no measurable skill (or too few outcomes), so the window's base rate of the ruling's direction; prior: under a week of outcomes (0.5); uncalibrated: stored before calibration existed; abstained (agent votes only): the agent had no data and holds at its fixed low figure",
      ),
    horizon_hours: z.number().int().nullable().describe("confidence is the probability of a move in the ruling's direction over this horizon"),
    fitted_at: z.string().nullable().describe("market time of the map's fit: outcomes matured by then only"),
    note: z.string().describe("what this confidence is, in plain words: calibrated or not, and on what"),
  })
  .meta({ id: "ConfidenceBasis" });

/** Beside every list of agent votes: how their confidences were obtained (each vote has its own basis too). */
export const agentsConfidenceBasisSchema = z
  .object({
    kind: z
      .enum(["per_agent", "uncalibrated"])
      .describe("per_agent: each vote's confidence is calibrated on its agent's own outcomes (see the vote's basis); uncalibrated: the agents' own figures, stored before agent votes were calibrated"),
    horizon_hours: z.number().int().nullable(),
    fitted_at: z.string().nullable(),
    note: z.string(),
  })
  .meta({ id: "AgentsConfidenceBasis" });

/** The agent's own figure beside its calibrated one: SPEC's veto ("AVOID with confidence > 0.7") reads this. */
export const rawAgentConfidence = unit.describe("the agent's own figure (its rule, or the language model's): what the Chief Judge weighs and the veto reads; not a probability");
export const agentConfidence = unit.describe(
  "calibrated: the probability, from the agent's own walk-forward map, that the asset moves in the vote's direction over the horizon (see confidence_basis). Except for an agent that abstained (basis kind abstained: every input DEAD): its HOLD keeps the fixed 0.2 DECISIONS 4 sets for it, which is not a probability",
);

/** Agent vote object of the BTC verdict (SPEC "BTC verdict"). */
export const verdictAgentSchema = z
  .object({
    name: z.string().describe("CHAIN ORACLE, MACRO SAGE, SENTIMENT MONK, TECH HAWK, LIQUIDITY GUARDIAN or RISK SHIELD"),
    vote: z.enum(RULINGS),
    confidence: agentConfidence,
    raw_confidence: rawAgentConfidence,
    confidence_basis: confidenceBasisSchema,
    reasoning: z.string().nullable().describe("null on historical verdicts stored before reasoning was exposed"),
  })
  .meta({ id: "VerdictAgent" });

/** DECISIONS 4 macro_context. */
export const macroContextSchema = z
  .object({
    assessment: z
      .enum(["RISK_ON", "NEUTRAL", "RISK_OFF"])
      .describe(
        "the macro signals' levels as the Judiciary Engine scores them (US10Y, DXY, GOLD, BTC_NASDAQ_CORR). GET /v1/macro/correlation's assessment reads their day-over-day moves instead, so the two can differ",
      ),
    key_driver: z.string().describe("the macro signal key that moved the assessment most"),
    primary_risk: z.string().describe("one plain-English sentence"),
  })
  .meta({ id: "MacroContext" });

/** `GET /v1/verdict/latest` (SPEC "BTC verdict"); council fields null when no council data exists. */
export const btcVerdictSchema = z
  .object({
    ruling: z.enum(RULINGS).describe("Judiciary Engine ruling by the score bands of DECISIONS 4"),
    confidence: unit,
    score: z.number().min(-100).max(100).describe("composite score, positive bullish"),
    btc_price: z.number().describe("BTC's last hourly close when the verdict was made"),
    timestamp: z
      .string()
      .describe(
        "when the verdict was made (every 5 minutes). The Judiciary rules only while BTC's price is live (its last hourly bar at most 2 hours old): during a feed outage this stays the last verdict's time",
      ),
    confidence_basis: confidenceBasisSchema,
    council_ruling: z.enum(RULINGS).nullable(),
    council_confidence: unit.nullable(),
    council_confidence_basis: orNull(confidenceBasisSchema),
    council_consensus: consensusLevel.nullable(),
    council_explanation: z.string().nullable(),
    council_explanation_source: orNull(explanationSourceSchema),
    council_mode: z.enum(["council", "judiciary"]).nullable(),
    agents: z.array(verdictAgentSchema).nullable(),
    agents_confidence_basis: orNull(agentsConfidenceBasisSchema),
    macro_context: orNull(macroContextSchema),
    ...cacheFields,
  })
  .meta({ id: "BtcVerdict" });

/** `GET /v1/charting/signal` (SPEC "Charting payload"). */
export const chartingSignalSchema = z
  .object({
    verdict: z
      .enum([...RULINGS, "PENDING"])
      .describe("the BTC Judiciary ruling of the last 15 minutes; PENDING when there is none (before the first, or while no live price lets it rule)"),
    confidence: z.number().min(0).max(100).describe("the ruling's calibrated confidence in percent; 0 when PENDING"),
    regime: z.union([z.enum(REGIMES), z.literal("UNKNOWN")]).describe("current regime; UNKNOWN before the first detection and while the last detection is over 2 h old (the price has stopped); /v1/regime/current keeps that detection with its detected_at"),
    dark_pool: z.number().int().min(0).max(100),
    rsi: z.number().describe("BTC 1H RSI(14) of the last closed bar; 0 if unavailable (no bar in the last 2 hours)"),
    ema_200: z.number().describe("BTC 1H EMA(200) of the last closed bar; 0 if unavailable (no bar in the last 2 hours)"),
    btc_price: z
      .number()
      .min(0)
      .describe("live spot: the last traded price, at most 5 minutes old (replay: the last hourly close); 0 if unavailable"),
    ghost_status: z.enum(["WAITING", "READY", "IN_POSITION"]),
    timestamp: z.number().int().describe("Unix epoch seconds"),
    ...cacheFields,
  })
  .meta({ id: "ChartingSignal" });

/** `verdict.new` event data (SPEC Events). */
export const verdictNewDataSchema = z
  .object({
    ruling: z.enum(RULINGS),
    composite_score: z.number().min(-100).max(100),
    confidence: unit,
    regime: z.union([z.enum(REGIMES), z.literal("UNKNOWN")]),
  })
  .meta({ id: "VerdictNewData" });
