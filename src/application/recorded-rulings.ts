import { ROSTERS } from "../domain/council/rosters.js";
import type { ScoredHour } from "../domain/calibration/walk-forward-calibrator.js";
import type { RecordedRuling } from "../store/ports/calibration-history.js";
import type { AgentScoredHour } from "./scored-hour-memo.js";
import { streamId, type RulingStream } from "./ruling-streams.js";

/** An hour of a verdict or council stream as live mode records it: a council's with its agents' rule votes. */
export interface RecordableHour extends ScoredHour {
  readonly agents: readonly AgentScoredHour[];
}

/** The recorded series one stream's hour is kept in: the stream's own, and a council's agents'. */
export function recordedStreamIds(stream: RulingStream): string[] {
  const own = streamId(stream);
  if (stream.kind !== "council") return [own];
  return [own, ...ROSTERS[stream.asset].agents.map((a) => streamId({ kind: "agent", asset: stream.asset, agent: a.name }))];
}

/** The rows that record `hour` of `stream`: the stream's own first, then a council's agents' votes. */
export function recordsOf(stream: RulingStream, hour: RecordableHour): RecordedRuling[] {
  const own: RecordedRuling = { stream: streamId(stream), at: hour.at, ruling: hour.ruling, score: hour.score };
  if (stream.kind !== "council") return [own];
  return [own, ...hour.agents.map((v) => ({ stream: streamId({ kind: "agent", asset: stream.asset, agent: v.agent }), at: v.at, ruling: v.ruling, score: v.score }))];
}

/**
 * The recorded hours of `stream` by time, rebuilt from its rows (`recordedStreamIds`). A council
 * hour's agents come in roster order, as a deliberation gives them; agent rows of an hour whose
 * council row is missing are dropped (the hour was never recorded whole).
 */
export function hoursFromRecord(stream: RulingStream, rows: readonly RecordedRuling[]): Map<number, RecordableHour> {
  const own = streamId(stream);
  const agentOf = new Map<string, string>();
  if (stream.kind === "council") for (const a of ROSTERS[stream.asset].agents) agentOf.set(streamId({ kind: "agent", asset: stream.asset, agent: a.name }), a.name);
  const hours = new Map<number, { at: number; ruling: RecordedRuling["ruling"]; score: number; agents: AgentScoredHour[] }>();
  for (const r of rows) if (r.stream === own) hours.set(r.at, { at: r.at, ruling: r.ruling, score: r.score, agents: [] });
  const order = [...agentOf.values()];
  for (const r of rows) {
    const agent = agentOf.get(r.stream);
    const hour = agent === undefined ? undefined : hours.get(r.at);
    if (agent !== undefined && hour !== undefined) hour.agents.push({ agent, at: r.at, ruling: r.ruling, score: r.score });
  }
  for (const hour of hours.values()) hour.agents.sort((a, b) => order.indexOf(a.agent) - order.indexOf(b.agent));
  return hours;
}
