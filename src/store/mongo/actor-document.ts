import type { ActorRef } from "../ports/actor-state.js";

/**
 * One document per actor holds its whole durable state: state values (s), reminders (r) and
 * pending outbox entries (o, counted in oc). A turn is therefore one document write, which is
 * atomic on MongoDB and on FerretDB alike (neither offers us multi-document transactions).
 */
export interface ActorDocument {
  _id: string;
  t: string;
  i: string;
  s?: Record<string, string>;
  /** Reminders: due time, period, payload and clock (absent in documents older than named clocks: market). */
  r?: Record<string, { d: number; p: number | null; x: string; c?: string }>;
  o?: Record<string, { q: number; topic: string; env: string }>;
  oc?: number;
}

export const ACTOR_COLLECTION = "actors";

export function actorDocId(actor: ActorRef): string {
  // Actor type names never contain ":" (the host validates them), so the split is unambiguous.
  return `${actor.type}:${actor.id}`;
}

/** Field names may not contain "." or start with "$"; keys and reminder names are user text. */
export function encodeField(name: string): string {
  return name.replace(/%/g, "%25").replace(/\./g, "%2E").replace(/\$/g, "%24");
}

export function decodeField(name: string): string {
  return name.replace(/%2E/g, ".").replace(/%24/g, "$").replace(/%25/g, "%");
}
