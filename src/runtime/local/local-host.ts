import type { Clock } from "../clocks/clock.js";
import { REMINDER_CLOCKS, type HostClocks } from "../clocks/host-clocks.js";
import type { Logger } from "../../logging/logger.js";
import type { OutboxDispatcher } from "../../events/outbox-dispatcher.js";
import type { ActorStateStore, StoredReminder } from "../../store/ports/actor-state.js";
import type { Actor, ActorClass, ActorConstructor, ActorFactory } from "../actor.js";
import type { TimerSpec } from "../actor-context.js";
import { ActorHostStoppedError, HostStoppingError, type ActorHost } from "../actor-host.js";
import { buildProxy, type ActorProxy } from "../actor-proxy.js";
import type { Activation, TimerEntry } from "../activation.js";
import { ActivationTable, callMethod, within } from "../activation-table.js";
import { createActivationContext, type ContextServices } from "../activation-context.js";
import { DueQueue } from "../due-queue.js";
import { fromJsonText, toJsonText } from "../json.js";
import { FAILED_ONE_SHOT_RETRY_MS, nextDueAfter } from "../next-due.js";
import { StateView } from "../state-view.js";
import { TurnChanges } from "../turn-changes.js";
import { Registrations, type Registration } from "../registrations.js";
import { runTurn, type TurnDeps } from "../turn-runner.js";
import { wireHost } from "../host-wiring.js";
import { ReminderBook } from "./reminder-book.js";
import { wallLagSeconds } from "../runtime-metrics.js";

export interface LocalHostOptions {
  readonly store: ActorStateStore;
  /** The market clock: market reminders, timers and idle time are measured on it. */
  readonly clock: Clock;
  /** The clock wall reminders fire by; default the system's. Tests move a ManualClock. */
  readonly wallClock?: Clock;
  readonly logger: Logger;
  /** Hands committed events to the bus; absent when nothing subscribes (some tests). */
  readonly dispatcher?: OutboxDispatcher;
  /** An actor without a turn for this long (host clock) is deactivated. Default one hour. */
  readonly idleTimeoutMs?: number;
  /**
   * Wall-clock milliseconds between checks for due reminders, timers and idle actors. 0 turns
   * the automatic checks off: tests then move a ManualClock and call `runDue()` themselves.
   */
  readonly pollIntervalMs?: number;
  /** How long `shutdown()` waits for running turns before giving up on them (they roll back). */
  readonly shutdownTimeoutMs?: number;
}

type Phase = "created" | "running" | "stopping" | "stopped";

const DEFAULT_IDLE_MS = 60 * 60 * 1000;
const DEFAULT_POLL_MS = 10;
const DEFAULT_SHUTDOWN_MS = 8000;

/**
 * The single-process actor runtime: one activation per actor id, turns one at a time in arrival
 * order, state and reminders in the service's store, each turn's changes committed all or nothing.
 */
export class LocalActorHost implements ActorHost {
  private readonly registrations = new Registrations();
  private readonly turnDeps: TurnDeps;
  private readonly activations = new ActivationTable();
  private readonly reminders = new ReminderBook();
  /** runDue calls firing market reminders in time order: the poll leaves market reminders to them. */
  private orderedRuns = 0;
  private readonly timers = new DueQueue<TimerEntry>();
  private readonly services: ContextServices;
  private readonly clocks: HostClocks;
  private readonly idleTimeoutMs: number;
  private phase: Phase = "created";
  private stopping: Promise<void> | null = null;
  private poll: NodeJS.Timeout | null = null;
  private lastSweep = Number.NEGATIVE_INFINITY;

  /** Tells long turns the host is stopping (ActorContext.stopping). */
  private readonly stopSignal: AbortController;

  constructor(private readonly options: LocalHostOptions) {
    this.idleTimeoutMs = options.idleTimeoutMs ?? DEFAULT_IDLE_MS;
    ({ clocks: this.clocks, services: this.services, turnDeps: this.turnDeps, stopSignal: this.stopSignal } = wireHost(options, {
      proxy: (cls, id) => this.proxy(cls, id),
      setTimer: (activation, name, spec, callback) => this.setTimer(activation, name, spec, callback),
      deleteTimer: (activation, name) => this.deleteTimer(activation, name),
      commit: (activation, turn) => this.commitTurn(activation, turn),
      committed: (activation, turn) => this.afterCommit(activation, turn),
    }));
  }

  register<A extends Actor>(cls: ActorConstructor<A>): void;
  register<A extends Actor>(cls: ActorClass<A>, factory: ActorFactory<A>): void;
  register<A extends Actor>(cls: ActorClass<A> | ActorConstructor<A>, factory?: ActorFactory<A>): void {
    this.registrations.add(cls, factory);
  }

  proxy<A extends Actor>(cls: ActorClass<A>, id: string): ActorProxy<A> {
    const type = cls.actorType;
    return buildProxy(cls, (method, arg) => this.invoke(type, id, method, arg));
  }

  async start(): Promise<void> {
    if (this.phase !== "created") throw new Error(`actor host cannot start: it is ${this.phase}`);
    // Reminders due while the process was down are due now: the first check fires each once.
    this.reminders.load(await this.options.store.loadReminders());
    this.phase = "running";
    this.options.dispatcher?.start();
    const every = this.options.pollIntervalMs ?? DEFAULT_POLL_MS;
    if (every > 0) {
      this.poll = setInterval(() => this.fireDue(), every);
      this.poll.unref();
    }
  }

  /**
   * Fires what is due on either clock and deactivates idle actors, then waits until every
   * turn in the host is over. Tests call it after moving a ManualClock.
   */
  async runDue(): Promise<void> {
    await this.runDueMarketInOrder();
    this.fireDue(true);
    await this.activations.settled();
  }

  /**
   * Market reminders due at different times fire in time order, the turns of one time over
   * before those of the next, as when market time runs through them: a warm-up step spans 5
   * market minutes, and a trader's turn a minute after a close must read what the verdict,
   * regime and council turns of that close stored. Turns due at the same time run side by side.
   */
  private async runDueMarketInOrder(): Promise<void> {
    const now = this.clocks.market.now();
    let done = Number.NEGATIVE_INFINITY;
    // The poll would take every market reminder due by `now` at once, whatever the order.
    this.orderedRuns += 1;
    try {
      for (let next = this.reminders.nextDue("market"); this.phase === "running" && next !== undefined && next < now; next = this.reminders.nextDue("market")) {
        // Still due at a time already fired: its turn could not move it on (the store was
        // unreachable); fireDue below tries it once more, as a poll would.
        if (next <= done) return;
        for (const reminder of this.reminders.takeDue("market", next)) this.fireReminder(reminder);
        await this.activations.settled();
        done = next;
      }
    } finally {
      this.orderedRuns -= 1;
    }
  }

  oldestTurnMs(): number {
    return this.activations.oldestRunningMs();
  }

  shutdown(withinMs?: number): Promise<void> {
    this.stopping ??= this.stop(withinMs);
    return this.stopping;
  }

  private async stop(withinMs: number | undefined): Promise<void> {
    this.phase = "stopping";
    this.stopSignal.abort(new HostStoppingError());
    if (this.poll) clearInterval(this.poll);
    this.poll = null;
    const drain = async (): Promise<void> => {
      // Calls still arrive while stopping (a finishing turn may call another actor); they run.
      await this.activations.settled();
      for (const activation of this.activations.all()) this.deactivate(activation);
      await this.activations.settled();
      await this.options.dispatcher?.stop();
    };
    const outcome = await within(drain(), withinMs ?? this.options.shutdownTimeoutMs ?? DEFAULT_SHUTDOWN_MS);
    if (outcome === "timeout") {
      // A turn that has not finished has not committed: the store holds the previous turn.
      this.options.logger.warn({ busy: this.activations.busy }, "actor host shutdown timed out with turns still running");
    }
    this.phase = "stopped";
  }

  /** Actors currently activated, for tests and diagnostics. */
  get activeCount(): number {
    return this.activations.all().filter((a) => a.instance).length;
  }

  private invoke(type: string, id: string, method: string, arg: unknown): Promise<unknown> {
    if (this.phase === "stopped") return Promise.reject(new ActorHostStoppedError(type, id));
    const registration = this.registrations.get(type);
    if (!registration) return Promise.reject(new Error(`actor type ${type} is not registered`));
    if (!registration.methods.has(method)) return Promise.reject(new Error(`${type} has no method ${method}`));
    // Through JSON like on Dapr, so an actor that works here works there (and shares no objects).
    const argText = arg === undefined ? undefined : toJsonText(arg);
    const activation = this.activations.entry(type, id);
    return this.activations.enqueue(activation, async () => {
      const instance = await this.ensureActive(activation, registration);
      const args = argText === undefined ? [] : [fromJsonText(argText)];
      const result = await runTurn(this.turnDeps, activation, registration, method, () => callMethod(instance, type, method, args));
      return fromJsonText(toJsonText(result));
    });
  }

  private registrationOf(activation: Activation): Registration {
    return this.registrations.require(activation.ref.type);
  }

  /** Runs inside the actor's mailbox, so activation is itself one at a time. */
  private async ensureActive(activation: Activation, registration: Registration): Promise<Actor> {
    if (activation.instance) return activation.instance;
    const committed = await this.options.store.loadState(activation.ref);
    // The whole state is loaded, so a key missing here is absent: reads never go back to the store.
    activation.view = new StateView(new Map(committed), true, () => Promise.resolve(undefined));
    const instance = registration.factory(createActivationContext(activation, activation.view, this.services));
    activation.instance = instance;
    registration.metrics.active.inc();
    try {
      await runTurn(this.turnDeps, activation, registration, "onActivate", () => instance.onActivate());
    } catch (err) {
      this.dropInstance(activation);
      throw err;
    }
    activation.lastUsed = this.options.clock.now();
    return instance;
  }

  /**
   * A turn's commit. When it fails, what this process holds for the actor is forgotten, and the
   * next turn reads the actor afresh. A store that cannot say whether a failed write landed
   * (MongoDB: an error after the server applied the update, a connection lost before its reply)
   * may hold the turn: the instance's view would then be behind it, and the next turn would act
   * on the state before it (a verdict re-announced under a new event id, a trader stepping bars
   * again). Reading afresh is right either way, and after a commit that surely failed (SQLite
   * rolls back) it only costs a load.
   */
  private async commitTurn(activation: Activation, turn: TurnChanges): Promise<void> {
    try {
      await this.commit(activation, turn);
    } catch (err) {
      this.forget(activation);
      throw err;
    }
  }

  /**
   * Drops the activation's instance, view and timers from inside its job; no onDeactivate (its
   * memory is what is in doubt). The entry stays in the table: the failing job may still commit
   * (a reminder moved on), and a call arriving meanwhile must queue behind it, not activate a
   * second instance. The next job on the entry activates it afresh.
   */
  private forget(activation: Activation): void {
    if (!activation.instance) return;
    this.options.logger.warn({ actorType: activation.ref.type, actorId: activation.ref.id }, "turn commit failed: activation forgotten, the next turn reads the actor afresh");
    this.dropInstance(activation);
  }

  /** Drops the instance, its view and its timers, and counts it out; once, whichever path gets there first. */
  private dropInstance(activation: Activation): void {
    for (const name of [...activation.timers.keys()]) this.deleteTimer(activation, name);
    if (!activation.instance) return;
    activation.instance = null;
    activation.view = null;
    this.registrationOf(activation).metrics.active.dec();
  }

  private commit(activation: Activation, turn: TurnChanges): Promise<void> {
    return this.options.store.commit({
      actor: activation.ref,
      upserts: turn.upserts,
      deletes: turn.deletes,
      reminderUpserts: [...turn.reminderUpserts.values()],
      reminderDeletes: [...turn.reminderDeletes],
      outbox: turn.outbox,
    });
  }

  private afterCommit(activation: Activation, turn: TurnChanges): void {
    if (turn.reminderUpserts.size > 0 || turn.reminderDeletes.size > 0) {
      this.reminders.applyCommitted(activation.ref.type, activation.ref.id, turn);
    }
    if (turn.outbox.length > 0) this.options.dispatcher?.kick();
  }

  /**
   * Synchronous: only enqueues turns, so a check never waits on an actor. Each reminder is due by
   * its own clock: wall reminders fire while the market clock stands still (warm-up steps aside,
   * a replay stopped at the end of its data).
   */
  private fireDue(sweepNow = false): void {
    if (this.phase !== "running") return;
    for (const clock of REMINDER_CLOCKS) {
      if (clock === "market" && this.orderedRuns > 0) continue;
      for (const reminder of this.reminders.takeDue(clock, this.clocks[clock].now())) this.fireReminder(reminder);
    }
    const now = this.options.clock.now();
    for (const { key: timer } of this.timers.takeDue(now)) this.fireTimer(timer);
    // An idle check visits every activation; the poll does it every tenth of the timeout.
    if (sweepNow || now - this.lastSweep >= this.idleTimeoutMs / 10) this.sweepIdle(now);
  }

  private fireReminder(fired: StoredReminder): void {
    const registration = this.registrations.get(fired.actorType);
    if (!registration) {
      // Left by a type this build no longer has; kept in the store, never fired.
      this.options.logger.warn({ actorType: fired.actorType, actorId: fired.actorId, reminder: fired.name }, "reminder of an unregistered actor type");
      return;
    }
    const activation = this.activations.entry(fired.actorType, fired.actorId);
    void this.activations.enqueue(activation, () => this.reminderTurn(activation, registration, fired))
      .catch(() => undefined) // logged by runTurn
      .finally(() => this.reminders.finished(fired));
  }

  private async reminderTurn(activation: Activation, registration: Registration, fired: StoredReminder): Promise<void> {
    const reminder = this.reminders.current(fired);
    if (!reminder) return; // deleted by a turn that ran since it was taken
    const now = this.clocks[reminder.clock].now();
    // Moved to the future by a turn that ran since it was taken: nothing to fire.
    if (reminder.dueAt > now) return;
    const lag = wallLagSeconds(this.clocks[reminder.clock], now - reminder.dueAt);
    if (lag !== null) registration.metrics.reminderLag.observe(lag);
    const advanced = advance(reminder, now);
    const schedule = (turn: TurnChanges): void => {
      if (advanced) turn.setReminder(advanced);
      else turn.deleteReminder(reminder.name);
    };
    // The handler's changes are gone, but the schedule moves on: a failing reminder keeps its
    // period instead of firing again at once. A one-shot one is tried again a little later: the
    // turn that would have set its successor (a webhook's next retry) was rolled back with it.
    const moveOn = async (): Promise<void> => {
      const turn = new TurnChanges();
      turn.setReminder(advanced ?? { ...reminder, dueAt: now + FAILED_ONE_SHOT_RETRY_MS });
      try {
        await this.commit(activation, turn);
        this.afterCommit(activation, turn);
      } catch (err) {
        // Store unreachable: the reminder stays due and the next check tries again.
        this.options.logger.error({ err, actorType: activation.ref.type, actorId: activation.ref.id, reminder: reminder.name }, "could not reschedule a failed reminder");
      }
    };
    let instance: Actor;
    try {
      instance = await this.ensureActive(activation, registration);
    } catch (err) {
      await moveOn();
      throw err;
    }
    await runTurn(
      this.turnDeps,
      activation,
      registration,
      `reminder ${reminder.name}`,
      (turn) => {
        // Set before the handler runs, so a handler that re-sets or deletes its reminder wins.
        schedule(turn);
        return instance.receiveReminder(reminder.name, fromJsonText(reminder.payload));
      },
      moveOn,
    );
  }

  private setTimer(activation: Activation, name: string, spec: TimerSpec, callback: () => Promise<void>): void {
    if (spec.periodMs !== undefined && !(spec.periodMs > 0)) throw new Error(`timer ${name}: periodMs must be > 0`);
    this.deleteTimer(activation, name);
    const entry: TimerEntry = { activation, name, dueAt: this.options.clock.now() + Math.max(0, spec.dueInMs), periodMs: spec.periodMs, callback };
    activation.timers.set(name, entry);
    this.timers.schedule(entry, entry.dueAt);
  }

  private deleteTimer(activation: Activation, name: string): void {
    const entry = activation.timers.get(name);
    if (!entry) return;
    activation.timers.delete(name);
    this.timers.cancel(entry);
  }

  private fireTimer(entry: TimerEntry): void {
    const { activation } = entry;
    const registration = this.registrationOf(activation);
    void this.activations.enqueue(activation, async () => {
      // Timers die with their activation; one deleted or replaced meanwhile does not fire.
      if (!activation.instance || activation.timers.get(entry.name) !== entry) return;
      try {
        await runTurn(this.turnDeps, activation, registration, `timer ${entry.name}`, () => entry.callback());
      } catch {
        // Logged by runTurn; a periodic timer keeps going.
      }
      if (activation.timers.get(entry.name) !== entry) return;
      if (entry.periodMs === undefined) {
        activation.timers.delete(entry.name);
        return;
      }
      entry.dueAt = nextDueAfter(entry.dueAt, entry.periodMs, this.options.clock.now());
      this.timers.schedule(entry, entry.dueAt);
    });
  }

  private sweepIdle(now: number): void {
    this.lastSweep = now;
    for (const activation of this.activations.all()) {
      if (activation.instance && activation.mailbox.idle && now - activation.lastUsed >= this.idleTimeoutMs) {
        this.deactivate(activation);
      }
    }
  }

  private deactivate(activation: Activation): void {
    const registration = this.registrationOf(activation);
    void this.activations.enqueue(activation, async () => {
      const instance = activation.instance;
      if (!instance) return;
      try {
        await runTurn(this.turnDeps, activation, registration, "onDeactivate", () => instance.onDeactivate());
      } catch {
        // Logged by runTurn; the activation goes away all the same.
      } finally {
        this.dropInstance(activation);
        this.activations.release(activation);
      }
    });
  }
}

/** The reminder after this firing: on its period's grid past `now`, or gone when one-shot. */
function advance(reminder: StoredReminder, now: number): StoredReminder | undefined {
  if (reminder.periodMs === null) return undefined;
  return { ...reminder, dueAt: nextDueAfter(reminder.dueAt, reminder.periodMs, now) };
}
