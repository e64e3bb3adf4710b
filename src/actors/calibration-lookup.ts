import type { z } from "zod";
import type { ActorContext } from "../runtime/actor-context.js";
import { calibrationMapSchema, type CalibrationMap } from "../domain/calibration/calibration-map.js";
import { refitTime } from "../domain/calibration/walk-forward-calibrator.js";
import type { EvidenceRepository } from "../store/ports/evidence.js";
import type { RulingStream } from "../application/ruling-streams.js";
import type { CouncilAsset } from "../domain/council/council-types.js";
import { agentCalibrationKey, agentMapsSchema, calibrationKey, EvidenceActor, modelCalibrationKey, modelMapsSchema, type AgentMaps } from "./evidence-actor.js";
import type { ModelMaps } from "../domain/council/model-calibration.js";

/**
 * What is in force at `at` under `key`: the stored document when it is that day's fit (one
 * store read, as every replica shares it), else what the EvidenceActor fits (once a day).
 */
async function dayFit<S extends z.ZodType<{ fittedAt: number }>>(evidence: EvidenceRepository, key: string, schema: S, at: number, fit: () => Promise<unknown>): Promise<z.infer<S>> {
  const stored = await evidence.get(key);
  const parsed = stored === null ? null : schema.safeParse(stored.body);
  if (parsed?.success === true && parsed.data.fittedAt === refitTime(at)) return parsed.data;
  return schema.parse(await fit());
}

/** The calibration map in force at `at` for a verdict or council stream. */
export function calibrationMapAt(ctx: ActorContext, evidence: EvidenceRepository, stream: RulingStream & { kind: "verdict" | "council" }, at: number): Promise<CalibrationMap> {
  return dayFit(evidence, calibrationKey(stream), calibrationMapSchema, at, () => ctx.proxy(EvidenceActor, stream.asset).mapFor({ kind: stream.kind, at }));
}

/** The council's agent maps in force at `at`. */
export function agentMapsAt(ctx: ActorContext, evidence: EvidenceRepository, asset: CouncilAsset, at: number): Promise<AgentMaps> {
  return dayFit(evidence, agentCalibrationKey(asset), agentMapsSchema, at, () => ctx.proxy(EvidenceActor, asset).agentMapsFor({ at }));
}

/** The council-mode maps in force at `at` (the model's own sessions and votes). */
export function modelMapsAt(ctx: ActorContext, evidence: EvidenceRepository, asset: CouncilAsset, at: number): Promise<ModelMaps> {
  return dayFit(evidence, modelCalibrationKey(asset), modelMapsSchema, at, () => ctx.proxy(EvidenceActor, asset).modelMapsFor({ at }));
}
