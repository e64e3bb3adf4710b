import { calibratedConfidence, type CalibrationMap } from "../calibration/calibration-map.js";
import type { ConfidenceBasis } from "../judiciary/judiciary-verdict.js";
import { RULING_SCORE } from "../judiciary/score-bands.js";
import type { AgentVote, CouncilSession } from "./council-types.js";
import { modelVoteScore, usableModelMap, type ModelMaps } from "./model-calibration.js";
import { templateHeadline } from "./explanation-template.js";

/**
 * The map that applies to a figure from this source when the model has no usable map of its
 * own. Maps are fitted on judiciary-mode (rule) scores; what the language model said has a
 * different distribution, so it gets the base rate of the same window until enough council-mode
 * outcomes exist to fit one (`ModelMaps`, `usableModelMap`).
 */
function mapFor(map: CalibrationMap, fromModel: boolean): CalibrationMap {
  return fromModel && map.kind === "isotonic" ? { ...map, kind: "base_rate", steps: [] } : map;
}

/**
 * How a figure was calibrated: `rule` on its stream's map; `awaiting` a model's figure given the
 * base rate as a stand-in; `model` a model's figure on the model's own graded outcomes.
 */
function basisOf(map: CalibrationMap, source: "rule" | "awaiting" | "model"): ConfidenceBasis {
  const marker = source === "awaiting" ? { awaitingModelOutcomes: true } : source === "model" ? { modelOutcomes: true } : {};
  return { kind: map.kind, horizonHours: map.horizonHours, fittedAt: map.fittedAt, outcomes: map.outcomes, baseRate: map.baseRate, ...marker };
}

/**
 * A vote as published: `confidence` becomes the probability, from the agent's own walk-forward
 * map, that the asset moves in the vote's direction over the horizon (DECISIONS 7 names agent
 * votes too). The agent's figure stays as `rawConfidence`: the Chief Judge weighed it and the
 * SOL/TAO veto read it ("AVOID with confidence > 0.7" is the agent's own conviction). An
 * abstaining agent (no data) keeps its HOLD at 0.2, as DECISIONS 7 sets for it.
 */
export function calibratedVote(vote: AgentVote, map: CalibrationMap | undefined, modelMap?: CalibrationMap): AgentVote {
  const fromModel = vote.source === "model";
  const own = fromModel ? usableModelMap(modelMap) : null;
  if (own !== null) return { ...vote, confidence: calibratedConfidence(own, vote.ruling, modelVoteScore(vote)), rawConfidence: vote.confidence, calibration: basisOf(own, "model") };
  if (map === undefined) return vote;
  if (vote.source === "abstain") return { ...vote, rawConfidence: vote.confidence };
  const used = mapFor(map, fromModel);
  const score = vote.score ?? RULING_SCORE[vote.ruling];
  return { ...vote, confidence: calibratedConfidence(used, vote.ruling, score), rawConfidence: vote.confidence, calibration: basisOf(used, fromModel ? "awaiting" : "rule") };
}

/**
 * The session as published: `confidence` becomes the calibrated probability that the asset
 * moves in the ruling's direction over the horizon, from the council stream's map; each vote's
 * from its agent's map (`agentMaps`, keyed by agent name; a vote without one is left as given).
 * A session in which the language model voted, and each model vote, is calibrated on the
 * model's own graded outcomes once there are enough (`modelMaps`), else gets the base rate.
 */
export function calibratedSession(
  session: CouncilSession,
  map: CalibrationMap,
  agentMaps: Readonly<Record<string, CalibrationMap>> = {},
  modelMaps: ModelMaps | null = null,
): CouncilSession {
  const fromModel = session.mode === "council";
  const own = fromModel ? usableModelMap(modelMaps?.session) : null;
  const used = own ?? mapFor(map, fromModel);
  const confidence = calibratedConfidence(used, session.ruling, session.score);
  return {
    ...session,
    confidence,
    plainExplanation: restatedConfidence(session, confidence),
    rawConfidence: session.confidence,
    calibration: basisOf(used, own !== null ? "model" : fromModel ? "awaiting" : "rule"),
    votes: session.votes.map((v) => calibratedVote(v, agentMaps[v.agent], modelMaps?.agents[v.agent])),
  };
}

/**
 * The template explanation states the session's confidence in its first sentence, written before
 * calibration with the Chief Judge's figure: published beside the calibrated `confidence` it read
 * "35% confidence" next to 0.50. Its headline is rewritten with the published figure. A model's
 * explanation is its own words and is left as written.
 */
function restatedConfidence(session: CouncilSession, confidence: number): string {
  if (session.explanationSource !== "template") return session.plainExplanation;
  const written = templateHeadline(session.asset, session.ruling, session.confidence);
  if (!session.plainExplanation.startsWith(written)) return session.plainExplanation;
  return templateHeadline(session.asset, session.ruling, confidence) + session.plainExplanation.slice(written.length);
}
