/**
 * Event timestamps that never repeat within one event type, across every replica (DECISIONS 7):
 * subscribers may de-duplicate on event plus timestamp. Each event type has few publishers, one
 * actor per asset at most (council.new: the BTC, TAO and SOL councils; ghost.signal: the four
 * traders). Each publisher owns one residue of the milliseconds modulo STAMP_SLOTS and stamps
 * only instants of its residue, strictly after its own last stamp (kept in its actor state, so
 * it moves with the actor). Two publishers can therefore never hand out the same instant,
 * whichever replicas they run on, and no coordination is needed. A stamp is at most
 * STAMP_SLOTS − 1 ms after the emission instant (plus the bump of a same-millisecond event).
 */
export const STAMP_SLOTS = 8;

/**
 * The publishers of one event type, by actor id. An asset's actor takes its asset's slot; an
 * actor of any other id is the only publisher of its event types (MarketData's macro.alert,
 * the RegimeActor's regime.change) and takes the last slot.
 */
const SLOT_OF_ID: Readonly<Record<string, number>> = { BTC: 0, ETH: 1, SOL: 2, TAO: 3 };

export function stampSlot(actorId: string): number {
  return SLOT_OF_ID[actorId] ?? STAMP_SLOTS - 1;
}

/** The publisher's next stamp for an event emitted at `at`, given its last stamp of that type. */
export function nextStamp(last: number | undefined, at: number, slot: number): number {
  const earliest = last !== undefined && at <= last ? last + 1 : at;
  const offset = (((slot - earliest) % STAMP_SLOTS) + STAMP_SLOTS) % STAMP_SLOTS;
  return earliest + offset;
}
