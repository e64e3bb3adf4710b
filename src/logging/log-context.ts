import { AsyncLocalStorage, AsyncResource } from "node:async_hooks";
import { SECRET_SHAPE } from "./secret-shape.js";

/**
 * What every log line written on behalf of one request, or inside one actor's turn, carries,
 * wherever in the code it is written (a service's own logger included: the owner mail, the
 * model call, a live source).
 */
export interface LogContext {
  readonly req_id?: string;
  readonly actorType?: string;
  readonly actorId?: string;
}

const storage = new AsyncLocalStorage<LogContext>();
const REQUEST_ID_SHAPE = /^[A-Za-z0-9._-]{8,64}$/;

/**
 * Runs `fn` (and everything it starts: awaits, timers, the e-mail a subscription queues) as work
 * of the request `req_id`. The logger's mixin adds the id to each line, so a line the mailer or
 * the webhook delivery writes for a request can be found from the request's X-Request-Id.
 */
export function runInRequest<T>(req_id: string, fn: () => T): T {
  return storage.run({ req_id }, fn);
}

/**
 * Runs `fn` (an actor's turn, and everything it starts) as that actor's work, inside the request
 * that asked for it if any: every line written meanwhile names the actor.
 */
export function runInActorTurn<T>(actorType: string, actorId: string, fn: () => T): T {
  return storage.run({ ...storage.getStore(), actorType, actorId }, fn);
}

/** Runs `fn` as nobody's work: for work shared by many requests (the outbox's delivery loop). */
export function runOutsideRequests<T>(fn: () => T): T {
  return storage.exit(fn);
}

/**
 * `fn`, bound to the request context of the moment (a queued job then logs as its caller's work).
 * `AsyncResource.bind` rather than `AsyncLocalStorage.bind`: the same effect, and stable on Node 20.
 */
export function bindToCaller<A extends unknown[], R>(fn: (...args: A) => R): (...args: A) => R {
  return AsyncResource.bind(fn);
}

/** The request whose work this is, if any: carried to another replica with an actor call. */
export function currentRequestId(): string | undefined {
  return storage.getStore()?.req_id;
}

/** A request id as a log line may carry it: short, plain characters, nothing shaped like a key or secret. */
export function isLoggableRequestId(id: string): boolean {
  return REQUEST_ID_SHAPE.test(id) && !SECRET_SHAPE.test(id);
}

/**
 * The pino mixin: the current request's and actor's fields, or none. A new object each call: pino
 * writes the line's own fields into it (so a line that names its actor itself is not doubled).
 */
export function logContextFields(): LogContext {
  const store = storage.getStore();
  return store === undefined ? {} : { ...store };
}
