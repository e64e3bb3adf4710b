import { randomBytes } from "node:crypto";
import { z } from "zod";
import type { Clock } from "../clocks/clock.js";
import type { HostClocks } from "../clocks/host-clocks.js";
import type { Logger } from "../../logging/logger.js";
import type { EventBus } from "../../events/event-bus.js";
import { eventEnvelopeSchema } from "../../events/event-envelope.js";
import type { OutboxRecord, ReminderClock } from "../../store/ports/actor-state.js";
import type { Actor, ActorClass, ActorConstructor, ActorFactory } from "../actor.js";
import type { TimerSpec } from "../actor-context.js";
import { ActorHostStoppedError, ActorMovedError, HostStoppingError, type ActorHost } from "../actor-host.js";
import { buildProxy, type ActorProxy } from "../actor-proxy.js";
import { activationKey, type Activation } from "../activation.js";
import { ActivationTable, callMethod, within } from "../activation-table.js";
import { createActivationContext, type ContextServices } from "../activation-context.js";
import { fromJsonText, toJsonText } from "../json.js";
import { Registrations, type Registration } from "../registrations.js";
import { StateView } from "../state-view.js";
import type { TurnChanges } from "../turn-changes.js";
import { runTurn, type TurnDeps } from "../turn-runner.js";
import { wireHost } from "../host-wiring.js";
import { FAILED_ONE_SHOT_RETRY_MS } from "../next-due.js";
import { REMINDER_JOURNAL_KEY, reminderJournalSchema, withTurnReminders, type JournalEntry } from "./reminder-journal.js";
import { fromStoredText, toStoredValue } from "./stored-value.js";
import { DaprError, DaprTimeoutError, goDuration, type SidecarClient, type StateOperation } from "./sidecar-client.js";
import { ADOPT_METHOD, actorHandoverSchema, type ActorHandover } from "../actor-handover.js";
import { CALL_MEMORY_KEYS, callBucketSchema, callIdSchema, emptyCallMemory, recalled, remember, withBucket, type CallMemory } from "./call-memory.js";

export interface DaprHostOptions {
  readonly sidecar: SidecarClient;
  /** The market clock; market reminder due times are converted from it to the sidecar's wall time. */
  readonly clock: Clock;
  /**
   * Market-clock milliseconds per wall-clock millisecond (the replay clock's speed, 1 live):
   * Dapr schedules on wall time, so market reminder delays and periods are divided by it. A
   * function is read at each registration: a replica that joins the cluster's clock takes the
   * cluster's speed, which may not be its own REPLAY_SPEED.
   */
  readonly clockRate?: number | (() => number);
  /** The wall clock wall reminders are scheduled by, as they are (default the system's). */
  readonly wallClock?: Clock;
  readonly logger: Logger;
  /** Receives the events actors publish, after their turn committed; absent: kept pending. */
  readonly bus?: EventBus;
  /** Told to Dapr in /dapr/config; Dapr deactivates idle actors itself. */
  readonly idleTimeoutMs?: number;
  readonly shutdownTimeoutMs?: number;
  /**
   * A turn running this long is stuck and the health probe fails, so daprd moves the actors
   * elsewhere (default STALLED_TURN_MS; the composition allows a council its model time).
   */
  readonly stalledTurnMs?: number;
  /**
   * True while this replica's market clock does not run yet (the cluster's warm-up, or the wait
   * for it): market reminders that fire meanwhile are skipped. They are a previous incarnation's
   * schedule (Dapr's scheduler keeps reminders by actor type and id, whatever app set them), and
   * the warm-up sets the schedule anew (issue 17: one recorded the market position of a fresh
   * cluster before its warm-up had begun, and the cluster skipped its warm-up).
   */
  readonly marketRemindersHeld?: () => boolean;
}

/** What the app answers daprd. */
export interface DaprReply {
  readonly status: number;
  readonly body: string;
}

/** The host's own state key: events written with a turn, removed once the bus took them. */
const OUTBOX_KEY = "__outbox";

const outboxSchema = z.array(
  z.object({
    id: z.string(),
    topic: z.string(),
    envelope: z.string(),
    actorType: z.string(),
    actorId: z.string(),
    seq: z.number(),
  }),
);

/**
 * Our reminder data inside Dapr's: the payload as JSON text, and the period and its clock, for
 * coalescing. Reminders set before clocks were named carry no clock: they are market reminders.
 */
const reminderDataSchema = z.object({
  payload: z.string(),
  periodMs: z.number().nullable(),
  clock: z.enum(["wall", "market"]).default("market"),
});
const remindBodySchema = z.object({ data: z.unknown().optional() }).loose();

type Phase = "running" | "stopping" | "stopped";

/**
 * Runs the same actor classes on Dapr. Daprd places each actor on one replica and calls this
 * app's actor API (see actor-routes.ts); here every call becomes a turn on a local activation,
 * whose state is read from and written to the sidecar (one transactional request per turn) and
 * whose reminders are Dapr reminders. No message from daprd throws out of this class: every
 * answer is a DaprReply, so nothing daprd sends can crash the process.
 */
export class DaprActorHost implements ActorHost {
  private readonly registrations = new Registrations();
  private readonly activations = new ActivationTable();
  private readonly outboxes = new Map<string, OutboxRecord[]>();
  /** Per activation: reminder changes committed but not yet registered (reminder-journal.ts). */
  private readonly journals = new Map<string, JournalEntry[]>();
  /**
   * Per activation: the answers of its recent calls that changed it, by call id (call-memory.ts).
   * Read on the first call that carries an id: actors driven by reminders alone never need it.
   */
  private readonly callMemories = new Map<string, CallMemory>();
  /** Per activation: the pending retry of its post-commit work (events, reminders) and its delay. */
  private readonly settleRetries = new Map<string, { handle: NodeJS.Timeout | null; delayMs: number }>();
  /** Per activation: when each reminder last fired here, to coalesce Dapr's backlog. */
  private readonly lastFired = new Map<string, Map<string, number>>();
  private readonly timerHandles = new Map<string, NodeJS.Timeout>();
  private readonly services: ContextServices;
  private readonly clocks: HostClocks;
  private readonly turnDeps: TurnDeps;
  private phase: Phase = "running";
  /** Set by withdraw(): daprd's health probe fails while the actors move away. */
  private draining = false;
  private stopping: Promise<void> | null = null;

  /** Tells long turns the host is stopping (ActorContext.stopping). */
  private readonly stopSignal: AbortController;

  constructor(private readonly options: DaprHostOptions) {
    ({ clocks: this.clocks, services: this.services, turnDeps: this.turnDeps, stopSignal: this.stopSignal } = wireHost(options, {
      proxy: (cls, id) => this.proxy(cls, id),
      setTimer: (activation, name, spec, callback) => this.setTimer(activation, name, spec, callback),
      deleteTimer: (activation, name) => this.deleteTimer(activation, name),
      commit: (activation, turn) => this.commit(activation, turn),
      committed: (activation, turn) => this.committed(activation, turn),
    }));
  }

  register<A extends Actor>(cls: ActorConstructor<A>): void;
  register<A extends Actor>(cls: ActorClass<A>, factory: ActorFactory<A>): void;
  register<A extends Actor>(cls: ActorClass<A> | ActorConstructor<A>, factory?: ActorFactory<A>): void {
    this.registrations.add(cls, factory);
  }

  proxy<A extends Actor>(cls: ActorClass<A>, id: string): ActorProxy<A> {
    const type = cls.actorType;
    return buildProxy(cls, async (method, arg) => {
      if (this.phase === "stopped") throw new ActorHostStoppedError(type, id);
      const argText = arg === undefined ? undefined : toJsonText(arg);
      // One id for every delivery of this call, ours and daprd's: the host runs it once.
      const callId = randomBytes(12).toString("base64url");
      const body = await retryWhileMoving(() => this.options.sidecar.invoke(type, id, method, argText, callId), this.stopSignal.signal, () => new ActorHostStoppedError(type, id));
      return body.length === 0 ? undefined : fromJsonText(body);
    });
  }

  /**
   * Gives an actor the state and reminders another host built for it (the Dapr warm-up runs the
   * actors in this process first): daprd routes the call to the replica placement gives the
   * actor, and that replica writes them as the actor's own, since daprd takes actor state only
   * from the replica hosting the actor. Overwrites the keys it names; meant for a fresh cluster.
   */
  async adopt(handover: ActorHandover): Promise<void> {
    if (this.phase === "stopped") throw new ActorHostStoppedError(handover.type, handover.id);
    await retryWhileMoving(
      () => this.options.sidecar.invoke(handover.type, handover.id, ADOPT_METHOD, toJsonText(handover)),
      this.stopSignal.signal,
      () => new ActorHostStoppedError(handover.type, handover.id),
    );
  }

  /** Dapr pulls the types and timeouts from /dapr/config when the app is up: nothing to do here. */
  start(): Promise<void> {
    return Promise.resolve();
  }

  oldestTurnMs(): number {
    return this.activations.oldestRunningMs();
  }

  /**
   * Whether this replica should host actors: running (not draining), and no turn stuck past
   * STALLED_TURN_MS. Answered to daprd's app health probe.
   */
  answerHealthProbe(): boolean {
    return this.phase === "running" && !this.draining && this.oldestTurnMs() < (this.options.stalledTurnMs ?? STALLED_TURN_MS);
  }

  /**
   * The first step of a graceful stop (SIGTERM): the health probe fails from now on and daprd is
   * asked to shut down, so it withdraws this replica's actor types from placement and deactivates
   * its actors here while this app still answers; placement moves them to the other replicas at
   * once (issue 17: they used to stay on the stopping replica's daprd, which then exited 1).
   * Resolves when no actor is active here any more and daprd has stopped answering, or when `ms`
   * passed. "No actor active here" alone was not enough: daprd may still deactivate actors whose
   * first call this app had not finished (a start-up's schedule calls, cut short by the stop), and
   * its DELETEs then met connections this app closed right after, so daprd exited 1 (the chaos
   * suite's SIGTERM scenario, once). daprd closes its API after its placement client has halted
   * the actors placed here (dapr/dapr's source: runners stop before closers run).
   */
  async withdraw(ms: number): Promise<void> {
    this.draining = true;
    // Long turns give up now, so daprd's deactivations (and this drain) are not held by them.
    this.stopSignal.abort(new HostStoppingError());
    const deadline = Date.now() + ms;
    await this.options.sidecar.shutdown().catch((err: unknown) => {
      // Already stopping (told by the orchestrator too) or gone: the wait below says the rest.
      this.options.logger.debug({ err }, "daprd shutdown request failed");
    });
    // A daprd that accepts but never answers counts as answering until the deadline.
    const sidecarAnswers = async (): Promise<boolean> => {
      let answered = true;
      const probe = this.options.sidecar.metadata().then(
        () => undefined,
        () => void (answered = false),
      );
      return (await within(probe, Math.max(0, deadline - Date.now()))) === "timeout" || answered;
    };
    while (Date.now() < deadline && (this.activations.all().some((a) => a.instance) || (await sidecarAnswers()))) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  shutdown(withinMs?: number): Promise<void> {
    this.stopping ??= this.stop(withinMs);
    return this.stopping;
  }

  private async stop(withinMs: number | undefined): Promise<void> {
    this.phase = "stopping";
    this.stopSignal.abort(new HostStoppingError()); // a no-op when withdraw() already told them
    const drain = async (): Promise<void> => {
      await this.activations.settled();
      for (const activation of this.activations.all()) void this.deactivate(activation);
      await this.activations.settled();
    };
    const outcome = await within(drain(), withinMs ?? this.options.shutdownTimeoutMs ?? 8000);
    if (outcome === "timeout") this.options.logger.warn({ busy: this.activations.busy }, "dapr actor host shutdown timed out with turns still running");
    this.phase = "stopped";
  }

  /** Ids of the actors of a type activated on this replica, for tests and diagnostics. */
  activeIds(type: string): string[] {
    return this.activations.all().filter((a) => a.instance && a.ref.type === type).map((a) => a.ref.id);
  }

  /** GET /dapr/config */
  config(): Record<string, unknown> {
    return {
      entities: this.registrations.types(),
      actorIdleTimeout: goDuration(this.options.idleTimeoutMs ?? 60 * 60 * 1000),
      drainOngoingCallTimeout: "10s",
      drainRebalancedActors: true,
    };
  }

  /**
   * PUT /actors/{type}/{id}/method/{method}. `callIdText`: the call's id (CALL_ID_HEADER), the
   * same on every delivery of one call; a call already committed under it is answered from the
   * actor's call memory, not run again.
   */
  async handleCall(type: string, id: string, method: string, bodyText: string, callIdText?: string): Promise<DaprReply> {
    try {
      if (this.phase === "stopped") return reply(503, { error: "actor host is stopped" });
      const registration = this.registrations.get(type);
      if (!registration) return reply(404, { error: `actor type ${type} is not hosted here` });
      if (method === ADOPT_METHOD) return await this.adoptHere(type, id, bodyText);
      if (!registration.methods.has(method)) return reply(404, { error: `${type} has no method ${method}` });
      const callId = callIdText === undefined ? undefined : callIdSchema.safeParse(callIdText);
      if (callId && !callId.success) return reply(400, { error: "malformed call id" });
      const args = bodyText.trim().length === 0 ? [] : [fromJsonText(bodyText)];
      const activation = this.activations.entry(type, id);
      return await this.activations.enqueue(activation, async (): Promise<DaprReply> => {
        const instance = await this.ensureActive(activation, registration);
        const earlier = callId ? recalled(await this.callMemory(activation), callId.data) : undefined;
        if (earlier !== undefined) return this.repeatedCall(activation, method, earlier);
        const answer = await runTurn(this.turnDeps, activation, registration, method, async (turn) => {
          const text = toJsonText(await callMethod(instance, type, method, args));
          if (callId) turn.served = { id: callId.data, answer: text };
          return text;
        });
        return { status: 200, body: answer };
      });
    } catch (err) {
      // The turn was rolled back: the calling replica may run it again on the new owner (MOVING).
      if (err instanceof ActorMovedError) return reply(500, { error: err.message, code: ACTOR_MOVED });
      // A state read daprd held past its limit (a rebalance): nothing was written, the caller retries.
      if (err instanceof DaprTimeoutError && err.safeToRetry) return reply(500, { error: err.message, code: ACTOR_RETRY });
      // Logged by runTurn when the actor failed; the caller gets the message, never a stack.
      return reply(500, { error: err instanceof Error ? err.message : String(err) });
    }
  }

  /** A second delivery of a committed call: its first answer, and the turn does not run again. */
  private repeatedCall(activation: Activation, method: string, earlier: string | null): DaprReply {
    const { type, id } = activation.ref;
    this.options.logger.info({ actorType: type, actorId: id, method }, "answered a repeated delivery of a call from the actor's call memory");
    if (earlier !== null) return { status: 200, body: earlier };
    // Not run twice, even though its answer was too long to keep: the caller learns it ran.
    return reply(409, { error: `${type}/${id}.${method} ran once already; its answer was too long to keep for a repeat`, code: CALL_REPEATED });
  }

  /** The hosting side of `adopt`: state in one transaction, then the reminders, as a turn's commit does. */
  private async adoptHere(type: string, id: string, bodyText: string): Promise<DaprReply> {
    const parsed = actorHandoverSchema.safeParse(fromJsonText(bodyText));
    if (!parsed.success || parsed.data.type !== type || parsed.data.id !== id) return reply(400, { error: "not a handover of this actor" });
    const handover = parsed.data;
    // An activation made before the handover (a read of the then empty actor) is built on state
    // the handover replaces: it goes, and the next call activates on the adopted state.
    const earlier = this.activations.find(type, id);
    if (earlier) await this.deactivate(earlier);
    const activation = this.activations.entry(type, id);
    await this.activations.enqueue(activation, async () => {
      const ops: StateOperation[] = handover.state.map(([key, text]) => ({ operation: "upsert", request: { key, value: toStoredValue(text) } }));
      // The reminders go into the journal with the state: one that fails to register here is
      // registered when the actor next activates (ensureActive), not lost.
      const journal: JournalEntry[] = handover.reminders.map((r) => ({ op: "set", name: r.name, clock: r.clock, dueAt: this.clocks[r.clock].now() + Math.max(0, r.dueInMs), periodMs: r.periodMs, payload: r.payload }));
      if (journal.length > 0) ops.push({ operation: "upsert", request: { key: REMINDER_JOURNAL_KEY, value: toStoredValue(JSON.stringify(journal)) } });
      if (ops.length > 0) await this.options.sidecar.transact(type, id, ops);
      for (const r of handover.reminders) await this.setDaprReminder(type, id, { ...r, dueInMs: Math.max(0, r.dueInMs) });
      if (journal.length > 0) await this.options.sidecar.transact(type, id, [{ operation: "delete", request: { key: REMINDER_JOURNAL_KEY } }]);
    });
    this.options.logger.debug({ actorType: type, actorId: id, keys: handover.state.length, reminders: handover.reminders.length }, "adopted an actor's state");
    return reply(200, null);
  }

  /** PUT /actors/{type}/{id}/method/remind/{name} */
  async handleReminder(type: string, id: string, name: string, bodyText: string): Promise<DaprReply> {
    const registration = this.registrations.get(type);
    if (!registration || this.phase === "stopped") return reply(404, { error: `actor type ${type} is not hosted here` });
    let data: z.infer<typeof reminderDataSchema>;
    try {
      const body = remindBodySchema.parse(bodyText.trim() ? JSON.parse(bodyText) : {});
      data = reminderDataSchema.parse(typeof body.data === "string" ? JSON.parse(body.data) : body.data);
    } catch (err) {
      // Not set through this host (or corrupted): it would fail the same way every time.
      this.options.logger.warn({ err, actorType: type, actorId: id, reminder: name }, "ignored a reminder with unreadable data");
      return reply(200, null);
    }
    try {
      const key = activationKey(type, id);
      const fired = this.lastFired.get(key) ?? new Map<string, number>();
      this.lastFired.set(key, fired);
      const now = this.clocks[data.clock].now();
      const last = fired.get(name);
      // After downtime Dapr replays missed firings back to back (dapr/dapr#4500): one is enough.
      if (data.periodMs !== null && last !== undefined && now - last < data.periodMs / 2) {
        this.options.logger.debug({ actorType: type, actorId: id, reminder: name }, "coalesced a backlogged reminder firing");
        return reply(200, null);
      }
      if (data.clock === "market" && this.options.marketRemindersHeld?.()) {
        this.options.logger.debug({ actorType: type, actorId: id, reminder: name }, "skipped a market reminder: this replica's market clock does not run yet");
        return reply(200, null);
      }
      fired.set(name, now);
      const activation = this.activations.entry(type, id);
      await this.activations.enqueue(activation, async () => {
        try {
          const instance = await this.ensureActive(activation, registration);
          await runTurn(this.turnDeps, activation, registration, `reminder ${name}`, () =>
            instance.receiveReminder(name, fromJsonText(data.payload)),
          );
        } catch (err) {
          // Dapr has consumed a one-shot reminder by now, so it is registered again for a later
          // try (next-due.ts says why), inside this job: registered after it, the retry could
          // replace the reminder a later turn of the actor set (a delivery due now, in 30 s).
          if (data.periodMs === null) await this.registerOneShotAgain(type, id, name, data);
          throw err;
        }
      });
      return reply(200, null);
    } catch {
      // A failed reminder turn is logged and rolled back; answering 200 keeps Dapr's schedule
      // (and its period) as it is instead of retrying at once.
      return reply(200, null);
    }
  }

  private async registerOneShotAgain(type: string, id: string, name: string, data: { readonly clock: ReminderClock; readonly payload: string }): Promise<void> {
    const again = { name, clock: data.clock, dueInMs: FAILED_ONE_SHOT_RETRY_MS, periodMs: null, payload: data.payload };
    await this.setDaprReminder(type, id, again).catch((err: unknown) => {
      this.options.logger.error({ err, actorType: type, actorId: id, reminder: name }, "could not register a failed one-shot reminder again");
    });
  }

  /** DELETE /actors/{type}/{id}: also sent for actors this replica never had (placement rebalance). */
  async handleDeactivate(type: string, id: string): Promise<DaprReply> {
    const activation = this.activations.find(type, id);
    if (activation && this.registrations.get(type)) await this.deactivate(activation);
    return reply(200, null);
  }

  private async ensureActive(activation: Activation, registration: Registration): Promise<Actor> {
    if (activation.instance) return activation.instance;
    const { type, id } = activation.ref;
    // State is read key by key on first use: an actor may own more than a turn touches.
    activation.view = new StateView(new Map(), false, (key) => this.readState(type, id, key));
    const [stored, journal] = await Promise.all([this.readState(type, id, OUTBOX_KEY), this.readState(type, id, REMINDER_JOURNAL_KEY)]);
    this.outboxes.set(activation.key, stored === undefined ? [] : outboxSchema.parse(fromJsonText(stored)));
    this.journals.set(activation.key, journal === undefined ? [] : reminderJournalSchema.parse(fromJsonText(journal)));
    const instance = registration.factory(createActivationContext(activation, activation.view, this.services));
    activation.instance = instance;
    try {
      await runTurn(this.turnDeps, activation, registration, "onActivate", () => instance.onActivate());
    } catch (err) {
      activation.instance = null;
      activation.view = null;
      throw err;
    }
    registration.metrics.active.inc();
    // Events and reminders a crash left between commit and registration go out now.
    await this.settle(activation);
    return instance;
  }

  /** The activation's call memory, read from its state the first time a call with an id needs it. */
  private async callMemory(activation: Activation): Promise<CallMemory> {
    const known = this.callMemories.get(activation.key);
    if (known) return known;
    const { type, id } = activation.ref;
    const [first, second] = await Promise.all(CALL_MEMORY_KEYS.map((key) => this.readState(type, id, key)));
    const empty = emptyCallMemory();
    const bucket = (text: string | undefined, i: 0 | 1) => (text === undefined ? empty[i] : callBucketSchema.parse(fromJsonText(text)));
    const memory: CallMemory = [bucket(first, 0), bucket(second, 1)];
    this.callMemories.set(activation.key, memory);
    return memory;
  }

  /** A state value's JSON text, undefined when absent (see stored-value.ts for the stored form). */
  private async readState(type: string, id: string, key: string): Promise<string | undefined> {
    const stored = await this.options.sidecar.getState(type, id, key);
    return stored === undefined ? undefined : fromStoredText(stored);
  }

  private async commit(activation: Activation, turn: TurnChanges): Promise<void> {
    const { type, id } = activation.ref;
    const ops: StateOperation[] = [];
    for (const [key, text] of turn.upserts) ops.push({ operation: "upsert", request: { key, value: toStoredValue(text) } });
    for (const key of turn.deletes) ops.push({ operation: "delete", request: { key } });
    if (turn.outbox.length > 0) {
      const pending = [...(this.outboxes.get(activation.key) ?? []), ...turn.outbox];
      ops.push({ operation: "upsert", request: { key: OUTBOX_KEY, value: toStoredValue(JSON.stringify(pending)) } });
    }
    const remindersChanged = turn.reminderUpserts.size > 0 || turn.reminderDeletes.size > 0;
    const journal = remindersChanged ? withTurnReminders(this.journals.get(activation.key) ?? [], turn) : null;
    if (journal !== null) ops.push({ operation: "upsert", request: { key: REMINDER_JOURNAL_KEY, value: toStoredValue(JSON.stringify(journal)) } });
    // The call this turn serves is remembered with its changes, so a repeat cannot run it again.
    const memory = turn.served && ops.length > 0 ? await this.callMemory(activation) : null;
    const calls = turn.served && memory ? remember(memory, turn.served.id, turn.served.answer) : null;
    if (calls !== null) ops.push({ operation: "upsert", request: { key: CALL_MEMORY_KEYS[calls.slot], value: toStoredValue(JSON.stringify(calls.bucket)) } });
    if (ops.length > 0) {
      try {
        await this.options.sidecar.transact(type, id, ops);
      } catch (err) {
        // daprd refuses the state of an actor placement has just moved elsewhere mid-turn, and of
        // every actor once it has begun to shut down (its placement lock closed): nothing was
        // written, and the actor's next owner runs what comes next.
        if (err instanceof DaprError && (INSTANCE_MISSING.test(err.body) || PLACEMENT_CLOSED.test(err.body))) throw new ActorMovedError(type, id, err.message);
        // No answer (a timeout, a dropped connection): the write may have landed. What this
        // process holds for the actor (the state read so far, pending events, the reminder
        // journal, the calls it remembers) may then be behind the store, and the next turn would
        // write it back over the landed one: an increment lost, an event overwritten, a repeated
        // call run again. So all of it is forgotten, and the next turn reads the actor afresh.
        if (!(err instanceof DaprError)) {
          this.options.logger.warn({ actorType: type, actorId: id }, "state write unanswered: activation forgotten, the next turn reads the actor afresh");
          this.drop(activation, this.registrations.require(type));
        }
        throw err;
      }
    }
    if (turn.outbox.length > 0) this.outboxes.set(activation.key, [...(this.outboxes.get(activation.key) ?? []), ...turn.outbox]);
    if (journal !== null) this.journals.set(activation.key, journal);
    if (memory !== null && calls !== null) this.callMemories.set(activation.key, withBucket(memory, calls.slot, calls.bucket));
  }

  /**
   * Reminders are Dapr's, outside the state transaction: they are registered after the state
   * committed (from the journal the commit wrote), so a rolled-back turn never leaves a reminder
   * behind and a failed registration is tried again.
   */
  private async committed(activation: Activation, turn: TurnChanges): Promise<void> {
    if (turn.outbox.length > 0 || turn.reminderUpserts.size > 0 || turn.reminderDeletes.size > 0) await this.settle(activation);
  }

  /**
   * The post-commit work still owed: reminder registrations, then events to the bus. Whatever is
   * left after a failure is tried again on a backoff (1 s doubling to a minute) through the
   * actor's mailbox, so an actor whose next turn is hours away does not hold it that long.
   */
  private async settle(activation: Activation): Promise<void> {
    await this.registerJournal(activation);
    await this.flushOutbox(activation);
    const owed = (this.journals.get(activation.key)?.length ?? 0) + (this.outboxes.get(activation.key)?.length ?? 0);
    const retry = this.settleRetries.get(activation.key);
    if (owed === 0) {
      if (retry?.handle) clearTimeout(retry.handle);
      this.settleRetries.delete(activation.key);
      return;
    }
    if (retry?.handle || this.phase !== "running") return;
    const delayMs = retry ? Math.min(SETTLE_RETRY_MAX_MS, retry.delayMs * 2) : SETTLE_RETRY_FIRST_MS;
    const handle = setTimeout(() => {
      this.settleRetries.set(activation.key, { handle: null, delayMs });
      void this.activations.enqueue(activation, async () => {
        if (activation.instance) await this.settle(activation);
      }).catch(() => undefined);
    }, delayMs);
    handle.unref();
    this.settleRetries.set(activation.key, { handle, delayMs });
  }

  /** Registers the journal's reminder changes in order; those registered leave the journal. */
  private async registerJournal(activation: Activation): Promise<void> {
    const journal = this.journals.get(activation.key) ?? [];
    if (journal.length === 0) return;
    const { type, id } = activation.ref;
    let registered = 0;
    await this.guard(activation, "reminders", async () => {
      for (const entry of journal) {
        if (entry.op === "set") await this.setDaprReminder(type, id, { ...entry, dueInMs: Math.max(0, entry.dueAt - this.clocks[entry.clock].now()) });
        else await this.options.sidecar.deleteReminder(type, id, entry.name);
        registered += 1;
      }
    });
    if (registered === 0) return;
    const rest = journal.slice(registered);
    const op: StateOperation =
      rest.length === 0
        ? { operation: "delete", request: { key: REMINDER_JOURNAL_KEY } }
        : { operation: "upsert", request: { key: REMINDER_JOURNAL_KEY, value: toStoredValue(JSON.stringify(rest)) } };
    // Should this write fail, the stored journal keeps entries already registered: registering
    // them again on the next activation sets the same reminders.
    await this.guard(activation, "reminders", () => this.options.sidecar.transact(type, id, [op]));
    this.journals.set(activation.key, rest);
  }

  /**
   * Registers one of our reminders with Dapr. Dapr schedules on wall time: a wall reminder goes as
   * it is, a market one is scaled by the clock rate; our period and clock ride in its data.
   */
  private setDaprReminder(
    type: string,
    id: string,
    r: { readonly name: string; readonly clock: ReminderClock; readonly dueInMs: number; readonly periodMs: number | null; readonly payload: string },
  ): Promise<void> {
    const rate = this.wallMsPer(r.clock);
    return this.options.sidecar.setReminder(type, id, r.name, {
      dueTime: goDuration(r.dueInMs / rate),
      ...(r.periodMs === null ? {} : { period: goDuration(Math.max(1, r.periodMs / rate)) }),
      data: JSON.stringify({ payload: r.payload, periodMs: r.periodMs, clock: r.clock }),
    });
  }

  /** Milliseconds of `clock` per wall-clock millisecond. */
  private wallMsPer(clock: ReminderClock): number {
    if (clock === "wall") return 1;
    const rate = this.options.clockRate;
    return typeof rate === "function" ? rate() : (rate ?? 1);
  }

  /** Hands pending events to the bus in order, then drops the delivered ones from the actor's state. */
  private async flushOutbox(activation: Activation): Promise<void> {
    const bus = this.options.bus;
    const pending = this.outboxes.get(activation.key) ?? [];
    if (!bus || pending.length === 0) return;
    let delivered = 0;
    await this.guard(activation, "outbox", async () => {
      for (const record of pending) {
        await bus.publish(record.topic, eventEnvelopeSchema.parse(JSON.parse(record.envelope)));
        delivered += 1;
      }
    });
    if (delivered === 0) return;
    const rest = pending.slice(delivered);
    const { type, id } = activation.ref;
    const op: StateOperation =
      rest.length === 0 ? { operation: "delete", request: { key: OUTBOX_KEY } } : { operation: "upsert", request: { key: OUTBOX_KEY, value: toStoredValue(JSON.stringify(rest)) } };
    await this.guard(activation, "outbox", () => this.options.sidecar.transact(type, id, [op]));
    this.outboxes.set(activation.key, rest);
  }

  /** Work after the commit cannot roll the turn back: its failure is logged, not thrown. */
  private async guard(activation: Activation, what: string, work: () => Promise<void>): Promise<void> {
    try {
      await work();
    } catch (err) {
      this.options.logger.error({ err, actorType: activation.ref.type, actorId: activation.ref.id, what }, "actor post-commit step failed");
    }
  }

  private setTimer(activation: Activation, name: string, spec: TimerSpec, callback: () => Promise<void>): void {
    if (spec.periodMs !== undefined && !(spec.periodMs > 0)) throw new Error(`timer ${name}: periodMs must be > 0`);
    this.deleteTimer(activation, name);
    const key = `${activation.key}\u0000${name}`;
    const registration = this.registrations.require(activation.ref.type);
    const fire = (): void => {
      this.timerHandles.delete(key);
      void this.activations.enqueue(activation, async () => {
        if (!activation.instance) return;
        await runTurn(this.turnDeps, activation, registration, `timer ${name}`, callback).catch(() => undefined);
      }).finally(() => {
        if (spec.periodMs !== undefined && activation.instance && !this.timerHandles.has(key) && activation.timers.has(name)) {
          this.timerHandles.set(key, setTimeout(fire, spec.periodMs / this.wallMsPer("market")));
        }
      });
    };
    activation.timers.set(name, { activation, name, dueAt: this.options.clock.now() + spec.dueInMs, periodMs: spec.periodMs, callback });
    // Timers run in this process on wall time: service-clock delays are scaled like reminders.
    this.timerHandles.set(key, setTimeout(fire, Math.max(0, spec.dueInMs) / this.wallMsPer("market")));
  }

  private deleteTimer(activation: Activation, name: string): void {
    const key = `${activation.key}\u0000${name}`;
    const handle = this.timerHandles.get(key);
    if (handle) clearTimeout(handle);
    this.timerHandles.delete(key);
    activation.timers.delete(name);
  }

  private deactivate(activation: Activation): Promise<void> {
    const registration = this.registrations.require(activation.ref.type);
    return this.activations.enqueue(activation, async () => {
      const instance = activation.instance;
      if (!instance) return;
      try {
        await runTurn(this.turnDeps, activation, registration, "onDeactivate", () => instance.onDeactivate());
      } catch {
        // Logged by runTurn; the activation goes away all the same.
      } finally {
        this.drop(activation, registration);
      }
    }).catch(() => undefined);
  }

  /**
   * daprd asks for our configuration when it starts. A sidecar that restarted while this process
   * kept running knows none of our activations and never sends their DELETE, yet placement may
   * hand the same actors back after another replica ran them meanwhile. So every activation is
   * forgotten, after the turn it may be running, without an onDeactivate (its view may be stale):
   * the next call reads the actor's state afresh from the store.
   */
  sidecarStarted(): void {
    for (const activation of this.activations.all()) {
      const registration = this.registrations.get(activation.ref.type);
      if (!registration) continue;
      void this.activations.enqueue(activation, async () => {
        if (!activation.instance) return;
        this.options.logger.info({ actorType: activation.ref.type, actorId: activation.ref.id }, "activation forgotten: daprd restarted");
        this.drop(activation, registration);
      }).catch(() => undefined);
    }
  }

  /** Everything this process holds for an activation, gone; its stored state stays. */
  private drop(activation: Activation, registration: Registration): void {
    for (const name of [...activation.timers.keys()]) this.deleteTimer(activation, name);
    activation.instance = null;
    activation.view = null;
    this.outboxes.delete(activation.key);
    this.journals.delete(activation.key);
    this.callMemories.delete(activation.key);
    const retry = this.settleRetries.get(activation.key);
    if (retry?.handle) clearTimeout(retry.handle);
    this.settleRetries.delete(activation.key);
    this.lastFired.delete(activation.key);
    registration.metrics.active.dec();
    this.activations.release(activation);
  }
}

function reply(status: number, value: unknown): DaprReply {
  return { status, body: JSON.stringify(value) };
}

/**
 * A turn running this long is stuck, without a language model (with one, the composition passes
 * `stalledTurnMs`: see actorStallMs): daprd's health check then moves the actors elsewhere.
 */
const STALLED_TURN_MS = 120_000;

/** The first retry of post-commit work that failed, and the longest wait between retries. */
const SETTLE_RETRY_FIRST_MS = 1_000;
const SETTLE_RETRY_MAX_MS = 60_000;

/** The code of a call whose turn was rolled back because its actor moved mid-turn. */
const ACTOR_MOVED = "actor_moved";
/** The code of a call whose turn failed on a state read daprd did not answer in time. */
const ACTOR_RETRY = "actor_retry";
/** The code of a repeated call that ran once already and whose answer was not kept. */
const CALL_REPEATED = "call_repeated";

/**
 * Errors daprd gives while placement moves an actor (a replica joined or left), and our own
 * answers for a turn rolled back because the actor moved during it or daprd held its state read
 * (daprd relays them inside its own error message, as escaped JSON: hence the optional
 * backslashes). Either the
 * method never ran or its turn left nothing behind (state, reminders and events commit together),
 * so trying again is safe and soon lands on the new owner.
 */
const MOVING =
  /actor lock is closed|did not find address for actor|placement tables? (is |are )?not (yet )?(ready|initialized)|is moving|actor is being deactivated|\\?"code\\?":\\?"actor_(moved|retry)/i;
/**
 * How long a call keeps retrying while its actor moves: a rebalance settles within seconds once
 * no turn holds daprd's drain (every state read has a time limit), so a minute is generous.
 */
const MOVING_RETRY_MS = 60_000;
/** daprd's answer to a state transaction for an actor this replica no longer hosts. */
const INSTANCE_MISSING = /ERR_ACTOR_INSTANCE_MISSING|actor instance is missing/;
/**
 * daprd's answer to a state transaction once it has begun to shut down: its placement client's
 * lock (dapr/kit's OuterCancel, "lock closed") is taken before the write and is closed at once.
 */
const PLACEMENT_CLOSED = /ERR_ACTOR_STATE_TRANSACTION_SAVE[\s\S]*lock closed/;

/**
 * How long a call waits for a sidecar that refuses connections: app and daprd start side by side
 * (compose, start-dapr.sh), and the service calls its actors right after it listens.
 */
const SIDECAR_START_MS = 60_000;

/** A connection the sidecar refused never reached it: nothing ran, so a retry is safe. */
function refused(err: unknown): boolean {
  return err instanceof Error && (err as NodeJS.ErrnoException).code === "ECONNREFUSED";
}

/** Whether a failed call is one of the "actor is moving" answers, safe and useful to retry. */
export function isMovingError(err: unknown): boolean {
  return err instanceof DaprError && MOVING.test(err.body);
}

/**
 * Runs `call` again while daprd refuses connections (starting) or answers that the actor moves,
 * each within its own time limit. A refused connection is not retried once the host stops: a
 * stopping replica waiting a minute for a sidecar that is not there ran past main.ts's 10 s
 * forced exit.
 */
async function retryWhileMoving(call: () => Promise<string>, stopping: AbortSignal, stopped: () => Error): Promise<string> {
  const startDeadline = Date.now() + SIDECAR_START_MS;
  const movingDeadline = Date.now() + MOVING_RETRY_MS;
  for (let attempt = 1; ; attempt++) {
    try {
      return await call();
    } catch (err) {
      if (refused(err) && Date.now() < startDeadline) {
        // Only the wait for a sidecar that is not there ends with the stop; a call answered
        // "moving" while the replica drains still follows its actor to the new host.
        if (stopping.aborted) throw stopped();
        await new Promise((resolve) => setTimeout(resolve, 250));
        continue;
      }
      if (!isMovingError(err) || Date.now() >= movingDeadline) throw err;
      await new Promise((resolve) => setTimeout(resolve, Math.min(50 * attempt, 1_000)));
    }
  }
}
