import type { EntryRecord, ExitFill } from "./trade.js";

export interface Exposure {
  /** Time in a position inside [from, to], ms. */
  readonly heldMs: number;
  /** Σ entry price × units held × time held inside [from, to], USD·ms. */
  readonly notionalMs: number;
}

/** A closed trade or the open position: what it bought, and the fills that sold it. */
type Held = Pick<EntryRecord, "entryTime" | "entryPrice" | "size"> & { readonly fills: readonly ExitFill[] };

/**
 * The trader's time and capital in the market over [from, to] (issue 16, the buy & hold scaling).
 * Capital-time is integrated over the fills: the whole size until the TP1 half-close and what is
 * left after it, because after TP1 the trader holds half the units (charging the whole size to the
 * exit overstated it up to 2×). Each segment is clipped to the span, so a trade entered before
 * `from` or closed after `to` counts only its part inside it. The position still open at `to`
 * counts up to `to` with the units it still holds: the trader's capital is in the market then too.
 */
export function capitalExposure(closed: readonly (Held & { readonly exitTime: number })[], open: Held | null, from: number, to: number): Exposure {
  const spans = [...closed.map((t) => segments(t, t.exitTime)), ...(open === null ? [] : [segments(open, to)])].flat();
  let heldMs = 0;
  let notionalMs = 0;
  for (const s of spans) {
    const ms = Math.max(0, Math.min(s.to, to) - Math.max(s.from, from));
    heldMs += ms;
    notionalMs += s.notional * ms;
  }
  return { heldMs, notionalMs };
}

/** Entry → each fill → `end`: the entry notional of the units held on each stretch (none once sold out). */
function segments(p: Held, end: number): { from: number; to: number; notional: number }[] {
  const out: { from: number; to: number; notional: number }[] = [];
  let units = p.size;
  let since = p.entryTime;
  for (const f of [...p.fills].sort((a, b) => a.t - b.t)) {
    out.push({ from: since, to: f.t, notional: p.entryPrice * units });
    units -= f.size;
    since = f.t;
  }
  // A closed trade ends at its last fill (nothing left: a zero-length stretch); an open one at `end`.
  if (units > 0 && end > since) out.push({ from: since, to: end, notional: p.entryPrice * units });
  return out;
}
