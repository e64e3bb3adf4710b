import type { z } from "zod";
import type { Clock } from "./clocks/clock.js";
import type { Logger } from "../logging/logger.js";
import type { EventEnvelope } from "../events/event-envelope.js";
import type { Json } from "./json.js";
import type { ReminderClock } from "../store/ports/actor-state.js";
import type { ActorClass, Actor } from "./actor.js";
import type { ActorProxy } from "./actor-proxy.js";

/**
 * Durable state of one actor. Changes are buffered in the running turn and saved when it ends,
 * all together, or dropped when it fails. Values go through JSON; `get` validates what it reads.
 */
export interface ActorState {
  get<T>(key: string, schema: z.ZodType<T>): Promise<T | undefined>;
  set(key: string, value: Json): void;
  delete(key: string): void;
}

export interface ReminderSpec {
  /**
   * The clock the times below are on, chosen by the actor: "market" (default) for schedules
   * about the market, "wall" for schedules about the outside world (retries to a receiver).
   */
  readonly clock?: ReminderClock;
  /** Delay before the first firing, in milliseconds of the reminder's clock. */
  readonly dueInMs?: number;
  /** Absolute first firing on the reminder's clock; wins over dueInMs. */
  readonly dueAt?: number;
  /** Repeat interval on the reminder's clock; absent for a one-shot reminder. */
  readonly periodMs?: number;
  readonly payload?: Json;
}

/** Durable schedules: saved with the turn, survive restarts and deactivation. */
export interface ActorReminders {
  set(name: string, spec: ReminderSpec): void;
  delete(name: string): void;
}

export interface TimerSpec {
  readonly dueInMs: number;
  readonly periodMs?: number;
}

/** Schedules that live only as long as the activation; each firing runs as a turn. */
export interface ActorTimers {
  set(name: string, spec: TimerSpec, callback: () => Promise<void>): void;
  delete(name: string): void;
}

/** How `publish` stamps an event a rolled-back turn emitted first. */
export interface PublishOptions {
  /**
   * The market instant of the turn that first emitted this event and was rolled back before it
   * went out (it stored a verdict, then crashed): the event sent again carries that time, as a
   * retry carries the original (DECISIONS 7). The stamp is that instant, bumped past this actor's
   * last stamp of the type (an instant after now counts as now), so stamps stay unique and ordered.
   */
  readonly at?: number;
}

/** What the host hands an actor: its identity, its time, its durable parts and its neighbours. */
export interface ActorContext {
  readonly type: string;
  readonly id: string;
  /** Market time (replay or live): what the actor's market logic runs on. */
  readonly clock: Clock;
  readonly logger: Logger;
  readonly state: ActorState;
  readonly reminders: ActorReminders;
  readonly timers: ActorTimers;
  /**
   * Aborted when the host starts to stop (SIGTERM): a long turn checks it between chunks of work
   * (`throwIfAborted`) and gives up, rolled back, instead of holding the shutdown past its 10 s.
   */
  readonly stopping: AbortSignal;
  /**
   * Writes an event into this turn's outbox; it reaches the bus after the turn commits. The
   * timestamp is this actor's clock, bumped so no two events of one type share a millisecond.
   */
  publish(event: string, data: Json, options?: PublishOptions): Promise<EventEnvelope>;
  /** Another actor, called through the host (never call back into a caller: turns don't re-enter). */
  proxy<B extends Actor>(cls: ActorClass<B>, id: string): ActorProxy<B>;
}
