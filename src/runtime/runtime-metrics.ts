import type { Counter, Gauge, Histogram } from "prom-client";
import { processCounter, processGauge, processHistogram } from "../observability/metrics.js";
import type { Clock } from "./clocks/clock.js";

/** Created once per process: every host (tests start several) shares these collectors. */
export const runtimeMetrics = {
  activeActors: processGauge({ name: "mis_actor_active", help: "Actors currently activated in this process, by type", labelNames: ["type"] }),
  turns: processCounter({ name: "mis_actor_turns_total", help: "Actor turns run, by type and outcome (ok or failed)", labelNames: ["type", "outcome"] }),
  failedTurns: processCounter({ name: "mis_actor_failed_turns_total", help: "Actor turns that failed and were rolled back, by type", labelNames: ["type"] }),
  // Up to 240 s: a council turn holds its model session (up to 2 × LLM_SESSION_BUDGET_MS + 30 s,
  // 210 s by default), and readiness fails at the larger of 120 s and that bound, so both fall
  // inside a bucket at the default budget (above 105 s of budget the longest land in +Inf).
  turnSeconds: processHistogram({ name: "mis_actor_turn_duration_seconds", help: "Duration of actor turns including the state commit, by type", labelNames: ["type"], buckets: [0.0001, 0.0005, 0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 15, 30, 60, 120, 240] }),
  reminderLagSeconds: processHistogram({
    name: "mis_actor_reminder_lag_seconds",
    help: "Delay between a reminder's due time and the start of its turn, in wall seconds (a market-clock delay divided by the replay speed; nothing observed while the warm-up fast-forwards market time). In-process host only: a Dapr reminder's call carries no due time",
    labelNames: ["type"],
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.5, 1, 5, 60],
  }),
};

/**
 * A reminder's lag as wall seconds. Market reminders are due in market time, which runs
 * REPLAY_SPEED times faster than the wall in replay, and jumps during the warm-up's fast-forward,
 * whose steps are not delays anyone waited: null then.
 */
export function wallLagSeconds(clock: Clock, lagMs: number): number | null {
  if ("warmingUp" in clock && clock.warmingUp === true) return null;
  const rate = "rate" in clock && typeof clock.rate === "number" && clock.rate > 0 ? clock.rate : 1;
  return Math.max(0, lagMs) / rate / 1000;
}

/** Label-bound children, resolved once per actor type: the hot path skips label hashing. */
export interface TypeMetrics {
  readonly active: Gauge.Internal<"type">;
  readonly ok: Counter.Internal;
  readonly failed: Counter.Internal;
  readonly failedTurns: Counter.Internal;
  readonly turnSeconds: Histogram.Internal<"type">;
  readonly reminderLag: Histogram.Internal<"type">;
}

export function metricsForType(type: string): TypeMetrics {
  return {
    active: runtimeMetrics.activeActors.labels(type),
    ok: runtimeMetrics.turns.labels(type, "ok"),
    failed: runtimeMetrics.turns.labels(type, "failed"),
    failedTurns: runtimeMetrics.failedTurns.labels(type),
    turnSeconds: runtimeMetrics.turnSeconds.labels(type),
    reminderLag: runtimeMetrics.reminderLagSeconds.labels(type),
  };
}
