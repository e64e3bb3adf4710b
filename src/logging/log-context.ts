import { AsyncLocalStorage, AsyncResource } from "node:async_hooks";
import { SECRET_SHAPE } from "./secret-shape.js";

/** What every log line written on behalf of one request carries, wherever in the code it is written. */
export interface LogContext {
  readonly req_id: string;
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

/** The pino mixin: the current request's fields, or none. A new object each call: pino writes the line's own fields into it. */
export function logContextFields(): Partial<LogContext> {
  const store = storage.getStore();
  return store === undefined ? {} : { req_id: store.req_id };
}
