import type { ReminderClock } from "../../store/ports/actor-state.js";
import type { Clock } from "./clock.js";

/**
 * Both clocks an actor host owns, by the name a reminder gives: market time (replay or live),
 * which actors read, and wall time, which schedules about the outside world run on.
 */
export type HostClocks = Readonly<Record<ReminderClock, Clock>>;

/** Every reminder clock, in the order a host checks them. */
export const REMINDER_CLOCKS: readonly ReminderClock[] = ["market", "wall"];
