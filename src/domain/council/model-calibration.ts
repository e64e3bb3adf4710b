import { DEFAULT_CALIBRATION, rulingSide, type CalibrationMap, type CalibrationSettings } from "../calibration/calibration-map.js";
import type { PricePath } from "../calibration/price-path.js";
import { refitTime, WalkForwardCalibrator } from "../calibration/walk-forward-calibrator.js";
import type { AgentVote, CouncilAsset, CouncilSession } from "./council-types.js";
import { ROSTERS } from "./rosters.js";

const HOUR = 3_600_000;

/**
 * The maps of a council's council-mode stream on one market day: the sessions the language model
 * voted in, and each agent's model votes. Fitted on what the service stored and published, so
 * they exist only where a deployment has run with a model long enough.
 */
export interface ModelMaps {
  readonly fittedAt: number;
  readonly session: CalibrationMap;
  readonly agents: Readonly<Record<string, CalibrationMap>>;
}

/**
 * A model vote's position on the −100…100 scale the maps read: its direction times the model's
 * own conviction (HOLD 0). The map then learns what the model's "0.9 BUY" was worth.
 */
export function modelVoteScore(vote: Pick<AgentVote, "ruling" | "confidence" | "rawConfidence">): number {
  const own = vote.rawConfidence ?? vote.confidence;
  const side = rulingSide(vote.ruling);
  return side === "up" ? 100 * own : side === "down" ? -100 * own : 0;
}

/**
 * Fits the council-mode maps in force at `at` (start of its UTC day) from the stored model
 * sessions (oldest first), with the same walk-forward rule as every stream: outcomes matured by
 * the fit time inside the trailing window. Sessions run every 30 minutes; the first of each
 * clock hour is kept, so the outcome counts mean what they mean for the hourly streams.
 */
export function fitModelMaps(
  asset: CouncilAsset,
  sessions: readonly CouncilSession[],
  prices: PricePath,
  at: number,
  settings: CalibrationSettings = DEFAULT_CALIBRATION,
): ModelMaps {
  const fittedAt = refitTime(at);
  const session = new WalkForwardCalibrator(`council-model:${asset}`, prices, settings);
  const agents = new Map(ROSTERS[asset].agents.map((a) => [a.name, new WalkForwardCalibrator(`agent-model:${asset}:${a.name}`, prices, settings)]));
  let lastHour = Number.NEGATIVE_INFINITY;
  for (const s of sessions) {
    const hour = Math.floor(s.at / HOUR);
    if (s.mode !== "council" || s.at > fittedAt || hour === lastHour) continue;
    lastHour = hour;
    session.observe({ at: s.at, ruling: s.ruling, score: s.score });
    for (const v of s.votes) if (v.source === "model") agents.get(v.agent)?.observe({ at: s.at, ruling: v.ruling, score: modelVoteScore(v) });
  }
  const agentMaps: Record<string, CalibrationMap> = {};
  for (const [name, calibrator] of agents) agentMaps[name] = calibrator.mapAt(fittedAt);
  return { fittedAt, session: session.mapAt(fittedAt), agents: agentMaps };
}

/** A council-mode map is used once it rests on as many outcomes as any fit needs; before that, null. */
export function usableModelMap(map: CalibrationMap | undefined, settings: CalibrationSettings = DEFAULT_CALIBRATION): CalibrationMap | null {
  return map !== undefined && map.outcomes >= settings.minFitOutcomes ? map : null;
}
