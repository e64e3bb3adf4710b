import type { ActorContext } from "../runtime/actor-context.js";
import { calibrationMapSchema, type CalibrationMap } from "../domain/calibration/calibration-map.js";
import { refitTime } from "../domain/calibration/walk-forward-calibrator.js";
import type { EvidenceRepository } from "../store/ports/evidence.js";
import type { RulingStream } from "../application/ruling-streams.js";
import type { CouncilAsset } from "../domain/council/council-types.js";
import { agentCalibrationKey, agentMapsSchema, calibrationKey, EvidenceActor, modelCalibrationKey, modelMapsSchema, storedMap, type AgentMaps } from "./evidence-actor.js";
import type { ModelMaps } from "../domain/council/model-calibration.js";

/**
 * The calibration map in force at `at` for a stream: the stored one when it is that day's
 * (one store read, as every replica shares it), else the EvidenceActor fits it (once a day).
 */
export async function calibrationMapAt(ctx: ActorContext, evidence: EvidenceRepository, stream: RulingStream & { kind: "verdict" | "council" }, at: number): Promise<CalibrationMap> {
  const stored = await evidence.get(calibrationKey(stream));
  const map = stored === null ? null : storedMap(stored.body);
  if (map !== null && map.fittedAt === refitTime(at)) return map;
  return calibrationMapSchema.parse(await ctx.proxy(EvidenceActor, stream.asset).mapFor({ kind: stream.kind, at }));
}

/** The council's agent maps in force at `at`: the stored day's document, else the EvidenceActor fits them. */
export async function agentMapsAt(ctx: ActorContext, evidence: EvidenceRepository, asset: CouncilAsset, at: number): Promise<AgentMaps> {
  const stored = await evidence.get(agentCalibrationKey(asset));
  const parsed = stored === null ? null : agentMapsSchema.safeParse(stored.body);
  if (parsed?.success === true && parsed.data.fittedAt === refitTime(at)) return parsed.data;
  return agentMapsSchema.parse(await ctx.proxy(EvidenceActor, asset).agentMapsFor({ at }));
}

/** The council-mode maps in force at `at` (the model's own sessions and votes): the stored day's, else fitted. */
export async function modelMapsAt(ctx: ActorContext, evidence: EvidenceRepository, asset: CouncilAsset, at: number): Promise<ModelMaps> {
  const stored = await evidence.get(modelCalibrationKey(asset));
  const parsed = stored === null ? null : modelMapsSchema.safeParse(stored.body);
  if (parsed?.success === true && parsed.data.fittedAt === refitTime(at)) return parsed.data;
  return modelMapsSchema.parse(await ctx.proxy(EvidenceActor, asset).modelMapsFor({ at }));
}
