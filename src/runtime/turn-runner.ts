import type { Clock } from "./clocks/clock.js";
import type { Logger } from "../logging/logger.js";
import type { Activation } from "./activation.js";
import type { Registration } from "./registrations.js";
import { TurnChanges } from "./turn-changes.js";
import { ActorMovedError, HostStoppingError, RuntimeTimeoutError } from "./actor-host.js";
import { runInActorTurn } from "../logging/log-context.js";

/** Where a host writes a turn's changes. */
export interface TurnSink {
  /** Writes the whole turn, all or nothing; throwing fails the turn. */
  commit(activation: Activation, turn: TurnChanges): Promise<void>;
  /** Runs after a successful commit (reminder bookkeeping, outbox kick). */
  committed(activation: Activation, turn: TurnChanges): void | Promise<void>;
}

export interface TurnDeps {
  readonly sink: TurnSink;
  readonly clock: Clock;
  readonly logger: Logger;
}

/**
 * One turn: the body's state, reminder and outbox changes are buffered and committed together
 * at the end, or dropped when the body or the commit fails. The failure is logged here, with the
 * actor's id, and passed on to the caller. `onFailure` runs before the error propagates.
 */
export async function runTurn<T>(
  deps: TurnDeps,
  activation: Activation,
  registration: Registration,
  label: string,
  body: (turn: TurnChanges) => Promise<T>,
  onFailure?: (err: unknown) => Promise<void>,
): Promise<T> {
  const view = activation.view;
  if (!view) throw new Error(`${label} on ${activation.ref.type}/${activation.ref.id} without an activation`);
  const turn = new TurnChanges();
  activation.turn = turn;
  view.begin(turn);
  const started = performance.now();
  try {
    const result = await runInActorTurn(activation.ref.type, activation.ref.id, () => body(turn));
    if (!turn.isEmpty()) await deps.sink.commit(activation, turn);
    view.applyCommitted(turn);
    await deps.sink.committed(activation, turn);
    registration.metrics.ok.inc();
    return result;
  } catch (err) {
    registration.metrics.failed.inc();
    registration.metrics.failedTurns.inc();
    const where = { err, actorType: activation.ref.type, actorId: activation.ref.id, turn: label };
    if (err instanceof ActorMovedError) deps.logger.warn(where, "actor moved to another replica during its turn; its changes were rolled back");
    else if (err instanceof HostStoppingError) deps.logger.info({ actorType: activation.ref.type, actorId: activation.ref.id, turn: label }, "turn gave up: the host is stopping; its changes were rolled back");
    else if (err instanceof RuntimeTimeoutError) deps.logger.warn(where, "the actor runtime did not answer the turn in time; its changes were rolled back");
    else deps.logger.error(where, "actor turn failed; its changes were rolled back");
    if (onFailure) await onFailure(err);
    throw err;
  } finally {
    activation.turn = null;
    view.end();
    activation.lastUsed = deps.clock.now();
    registration.metrics.turnSeconds.observe((performance.now() - started) / 1000);
  }
}
