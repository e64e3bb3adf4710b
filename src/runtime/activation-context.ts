import { z } from "zod";
import { randomUUID } from "node:crypto";
import type { HostClocks } from "./clocks/host-clocks.js";
import type { Logger } from "../logging/logger.js";
import type { EventEnvelope } from "../events/event-envelope.js";
import type { Actor, ActorClass } from "./actor.js";
import type { ActorContext, ActorReminders, ActorState, ActorTimers, PublishOptions, ReminderSpec, TimerSpec } from "./actor-context.js";
import type { ActorProxy } from "./actor-proxy.js";
import type { Activation } from "./activation.js";
import { fromJsonText, toJsonText, type Json } from "./json.js";
import { nextStamp, stampSlot } from "../events/event-stamps.js";
import type { TurnChanges } from "./turn-changes.js";

/** What a context needs from its host. */
export interface ContextServices {
  readonly clocks: HostClocks;
  /** Aborted (with a HostStoppingError) when the host starts to stop. */
  readonly stopping: AbortSignal;
  readonly logger: Logger;
  proxy<B extends Actor>(cls: ActorClass<B>, id: string): ActorProxy<B>;
  nextOutboxSeq(): number;
  setTimer(activation: Activation, name: string, spec: TimerSpec, callback: () => Promise<void>): void;
  deleteTimer(activation: Activation, name: string): void;
}

/** Host-owned state key ("__" keys are the hosts'): each event type's last stamp. */
const STAMPS_KEY = "__stamps";
const stampsSchema = z.record(z.string(), z.number());

function runningTurn(activation: Activation): TurnChanges {
  if (!activation.turn) throw new Error("actor used its context outside a turn (an un-awaited promise?)");
  return activation.turn;
}

export function createActivationContext(activation: Activation, state: ActorState, services: ContextServices): ActorContext {
  const { type, id } = activation.ref;
  const reminders: ActorReminders = {
    set(name: string, spec: ReminderSpec): void {
      if (name.length === 0 || name.startsWith("__")) throw new Error(`invalid reminder name "${name}"`);
      if (spec.periodMs !== undefined && !(spec.periodMs > 0)) throw new Error(`reminder ${name}: periodMs must be > 0`);
      const clock = spec.clock ?? "market";
      const dueAt = spec.dueAt ?? services.clocks[clock].now() + Math.max(0, spec.dueInMs ?? 0);
      runningTurn(activation).setReminder({
        actorType: type,
        actorId: id,
        name,
        clock,
        dueAt,
        periodMs: spec.periodMs ?? null,
        payload: toJsonText(spec.payload ?? null),
      });
    },
    delete(name: string): void {
      runningTurn(activation).deleteReminder(name);
    },
  };
  const timers: ActorTimers = {
    set(name, spec, callback) {
      services.setTimer(activation, name, spec, callback);
    },
    delete(name) {
      services.deleteTimer(activation, name);
    },
  };
  return {
    type,
    id,
    clock: services.clocks.market,
    // Not a child logger naming the actor: every turn runs in the actor's log context
    // (runInActorTurn), so each line written in it names the actor, and a child's bindings would
    // name it twice.
    logger: services.logger,
    state,
    reminders,
    timers,
    stopping: services.stopping,
    proxy: (cls, otherId) => services.proxy(cls, otherId),
    async publish(event: string, data: Json, options: PublishOptions = {}): Promise<EventEnvelope> {
      const turn = runningTurn(activation);
      // The last stamp per event type lives in the actor's own state (a host key), committed
      // with the turn, so stamps stay unique wherever the actor runs next (event-stamps.ts).
      const last = (await state.get(STAMPS_KEY, stampsSchema)) ?? {};
      if (activation.turn !== turn) throw new Error("publish finished after its turn ended (await it)");
      const now = services.clocks.market.now();
      const stamp = nextStamp(last[event], Math.min(options.at ?? now, now), stampSlot(id));
      turn.deletes.delete(STAMPS_KEY);
      turn.upserts.set(STAMPS_KEY, toJsonText({ ...last, [event]: stamp }));
      const envelope: EventEnvelope = {
        id: randomUUID(),
        event,
        timestamp: new Date(stamp).toISOString(),
        data: fromJsonText(toJsonText(data)) as Json,
      };
      turn.outbox.push({
        id: envelope.id,
        topic: event,
        envelope: JSON.stringify(envelope),
        actorType: type,
        actorId: id,
        seq: services.nextOutboxSeq(),
      });
      return envelope;
    },
  };
}
