import { z } from "zod";
import type { ActorContext } from "../runtime/actor-context.js";
import { firedEarly, nextTurnAt, slotAt } from "../domain/market/turn-slots.js";
import { scheduleTag } from "./schedule-tag.js";

/** A periodic turn about fixed slots (verdicts every 5 minutes, councils every 30), `offsetMs` after each. */
export interface SlotSchedule {
  readonly reminder: string;
  readonly periodMs: number;
  readonly offsetMs: number;
  readonly version: number;
}

/** The one-shot reminder that makes a first turn at once when a schedule starts between two turns. */
export const FIRST_TURN = "first";

/**
 * Sets the slot reminder unless this version and offset of it are set, and, between two turns,
 * a first turn now: a new service has a verdict or session at once.
 */
export async function ensureSlotSchedule(ctx: ActorContext, s: SlotSchedule): Promise<void> {
  const wanted = scheduleTag(s.version, s.offsetMs);
  if ((await ctx.state.get("schedule", z.number())) === wanted) return;
  const now = ctx.clock.now();
  const next = nextTurnAt(now, s.periodMs, s.offsetMs);
  ctx.reminders.set(s.reminder, { dueAt: next, periodMs: s.periodMs });
  if (next > now) ctx.reminders.set(FIRST_TURN, { dueInMs: 0 });
  ctx.state.set("schedule", wanted);
}

/**
 * The slot a turn fired by `name` is about. A slot reminder that fired early (Dapr's scaled
 * period, replica clocks) is set back on its slot's turn, so the drift does not add up.
 */
export function slotOfFiring(ctx: ActorContext, s: SlotSchedule, name: string): number {
  const now = ctx.clock.now();
  const slot = slotAt(now, s.periodMs, s.offsetMs);
  if (name === s.reminder && firedEarly(now, s.periodMs, s.offsetMs)) {
    ctx.reminders.set(s.reminder, { dueAt: slot + s.offsetMs + s.periodMs, periodMs: s.periodMs });
  }
  return slot;
}
