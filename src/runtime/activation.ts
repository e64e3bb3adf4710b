import type { Actor } from "./actor.js";
import { Mailbox } from "./mailbox.js";
import type { StateView } from "./state-view.js";
import type { TurnChanges } from "./turn-changes.js";
import type { ActorRef } from "../store/ports/actor-state.js";

/** A non-durable timer of one activation. */
export interface TimerEntry {
  readonly activation: Activation;
  readonly name: string;
  dueAt: number;
  readonly periodMs: number | undefined;
  readonly callback: () => Promise<void>;
}

/**
 * One actor id in this process: its queue, and while activated its instance and state view.
 * The entry outlives a deactivation only while calls are queued behind it.
 */
export class Activation {
  readonly mailbox = new Mailbox();
  instance: Actor | null = null;
  view: StateView | null = null;
  turn: TurnChanges | null = null;
  lastUsed = 0;
  readonly timers = new Map<string, TimerEntry>();

  constructor(
    readonly ref: ActorRef,
    readonly key: string,
  ) {}
}

export function activationKey(type: string, id: string): string {
  return `${type}\u0000${id}`;
}
