import { z } from "zod";
import type { ActorContext } from "../runtime/actor-context.js";

export interface OutageSpan {
  /** The actor-state key that holds when the span started (one key per kind of outage). */
  readonly key: string;
  /** When this turn observed it, on the actor's clock. */
  readonly at: number;
  /** Whether this turn found things working. */
  readonly ok: boolean;
  /** Logged at warn where a span starts, with `fields`. */
  readonly started: string;
  /** Logged at info where it ends, with its start. */
  readonly ended: string;
  readonly fields?: Record<string, unknown>;
}

/**
 * Logs where an outage starts and ends, once each, not on each turn inside it (a feed outage is
 * hundreds of 5-minute slots; a down source fails every minute). The start is actor state, so a
 * restart or another replica continuing the actor does not log it again.
 */
export async function noteOutage(ctx: ActorContext, span: OutageSpan): Promise<void> {
  const since = await ctx.state.get(span.key, z.number());
  const marketAt = new Date(span.at).toISOString();
  if (!span.ok && since === undefined) {
    ctx.state.set(span.key, span.at);
    ctx.logger.warn({ ...span.fields, at: marketAt }, span.started);
  } else if (span.ok && since !== undefined) {
    ctx.state.delete(span.key);
    ctx.logger.info({ ...span.fields, since: new Date(since).toISOString(), at: marketAt }, span.ended);
  }
}

/**
 * The span without a live price of an actor's asset, in which `what` (its verdicts, its council
 * sessions) is not made. Returns `priced`, so a caller reads `if (!(await notePriceGap(...))) return`.
 */
export async function notePriceGap(ctx: ActorContext, at: number, priced: boolean, what: string): Promise<boolean> {
  await noteOutage(ctx, {
    key: "unpricedSince",
    at,
    ok: priced,
    started: `no live price: ${what} paused until the price returns`,
    ended: `live price back: ${what} resumed`,
  });
  return priced;
}
