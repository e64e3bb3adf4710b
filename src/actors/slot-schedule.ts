import { z } from "zod";
import type { ActorContext } from "../runtime/actor-context.js";
import { EARLY_FIRING_TOLERANCE_MS, firedEarly, nextTurnAt, slotAt } from "../domain/market/turn-slots.js";
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

/** Wall milliseconds between looks at the market clock while a turn waits for its slot. */
const SLOT_WAIT_STEP_MS = 5;

/**
 * A turn about slot `at` that runs before it (a firing up to EARLY_FIRING_TOLERANCE_MS early,
 * which `slotAt` counts as the coming slot's) waits until market time reaches the slot. A ruling
 * about an instant reads the feed as of that instant, which must have come; and its event is
 * stamped at its emission, never later, so an early one (09:14:54 for the 09:15 verdict, seen in
 * the chaos suite at 300x) read as the slot before's. The wait is a few wall milliseconds at replay
 * speeds (6 market seconds are 20 ms at 300x); it ends within the tolerance's length in wall time
 * anyway, so a clock that stopped (the end of the replay data) never holds a turn, nor does a stop.
 */
export async function untilSlot(ctx: ActorContext, at: number): Promise<void> {
  for (let waited = 0; ctx.clock.now() < at && waited < EARLY_FIRING_TOLERANCE_MS && !ctx.stopping.aborted; waited += SLOT_WAIT_STEP_MS) {
    await new Promise((resolve) => setTimeout(resolve, SLOT_WAIT_STEP_MS));
  }
}
