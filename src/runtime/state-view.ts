import type { z } from "zod";
import type { ActorState } from "./actor-context.js";
import { fromJsonText, toJsonText, type Json } from "./json.js";
import type { TurnChanges } from "./turn-changes.js";

/** Reads one key from the durable store: JSON text, or undefined when absent. */
export type StateFetch = (key: string) => Promise<string | undefined>;

/**
 * An activation's view of its state: committed values (JSON text, so every read hands out a
 * fresh copy that a turn may mutate freely) overlaid with the running turn's changes. With
 * `complete`, the committed map holds every key (the in-process host loads it all at
 * activation); otherwise keys are fetched on first read (Dapr).
 */
export class StateView implements ActorState {
  private turn: TurnChanges | null = null;

  constructor(
    private readonly committed: Map<string, string | null>,
    private readonly complete: boolean,
    private readonly fetch: StateFetch,
  ) {}

  begin(turn: TurnChanges): void {
    this.turn = turn;
  }

  end(): void {
    this.turn = null;
  }

  async get<T>(key: string, schema: z.ZodType<T>): Promise<T | undefined> {
    const turn = this.current();
    if (turn.deletes.has(key)) return undefined;
    const text = turn.upserts.get(key) ?? (await this.committedText(key));
    return text === undefined ? undefined : schema.parse(fromJsonText(text));
  }

  set(key: string, value: Json): void {
    const turn = this.current();
    reservedKey(key);
    const text = toJsonText(value);
    turn.deletes.delete(key);
    // Re-writing the stored value is no change: turns that only read never write.
    if (this.committed.get(key) === text) turn.upserts.delete(key);
    else turn.upserts.set(key, text);
  }

  delete(key: string): void {
    const turn = this.current();
    reservedKey(key);
    turn.upserts.delete(key);
    const known = this.committed.get(key);
    const knownAbsent = known === null || (this.complete && known === undefined);
    if (knownAbsent) turn.deletes.delete(key);
    else turn.deletes.add(key);
  }

  /** Called after the store accepted the turn. */
  applyCommitted(turn: TurnChanges): void {
    for (const [key, text] of turn.upserts) this.committed.set(key, text);
    for (const key of turn.deletes) {
      if (this.complete) this.committed.delete(key);
      else this.committed.set(key, null);
    }
  }

  private async committedText(key: string): Promise<string | undefined> {
    const known = this.committed.get(key);
    if (known !== undefined) return known ?? undefined;
    if (this.complete) return undefined;
    const fetched = await this.fetch(key);
    this.committed.set(key, fetched ?? null);
    return fetched;
  }

  private current(): TurnChanges {
    if (!this.turn) throw new Error("actor state used outside a turn (an un-awaited promise in an actor method?)");
    return this.turn;
  }
}

/** Keys starting with "__" belong to the hosts (the Dapr host keeps its outbox there). */
function reservedKey(key: string): void {
  if (key.length === 0 || key.startsWith("__")) throw new Error(`invalid state key "${key}" (empty or starting with "__")`);
}
