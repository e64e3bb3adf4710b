import { Agent, request } from "node:http";
import { z } from "zod";
import { RuntimeTimeoutError } from "../actor-host.js";
import { CALL_ID_HEADER } from "./call-memory.js";
import { currentRequestId } from "../../logging/log-context.js";

/** Carries the caller's request id through daprd to the replica that runs the turn (daprd forwards an actor call's headers). */
export const REQUEST_ID_HEADER = "mis-request-id";

/** One change of an actor state transaction (Dapr's actor state API). */
export type StateOperation =
  | { readonly operation: "upsert"; readonly request: { readonly key: string; readonly value: unknown } }
  | { readonly operation: "delete"; readonly request: { readonly key: string } };

export interface DaprReminder {
  /** Go duration until the first firing, e.g. "1500ms". */
  readonly dueTime: string;
  readonly period?: string;
  /** Our payload as JSON text (a string), never an object: see DECISIONS 6 on "[object Object]". */
  readonly data: string;
}

const daprErrorSchema = z.object({ errorCode: z.string().optional(), message: z.string().optional() }).loose();

/**
 * The sidecar did not answer within the call's time limit. Nothing we sent may be assumed done
 * or undone; what matters is that the caller stops waiting: daprd 1.16 can hold a state read
 * while placement rebalances and then wait, without a limit, for the turn that made the read to
 * finish (issue 17's start-up deadlock). A turn whose read times out fails, and daprd's drain
 * goes on.
 */
export class DaprTimeoutError extends RuntimeTimeoutError {
  /** A read changed nothing, so the turn that made it may run again; a write may have landed. */
  readonly safeToRetry: boolean;

  constructor(
    readonly method: string,
    readonly what: string,
    readonly ms: number,
  ) {
    super(`${method} ${what}: daprd did not answer within ${ms} ms`);
    this.name = "DaprTimeoutError";
    this.safeToRetry = method === "GET";
  }
}

/**
 * Time limits of sidecar calls, per kind. State and reminder calls touch only daprd and its
 * state store (milliseconds when healthy); an actor call runs a whole turn somewhere in the
 * cluster, a council with a language model included, so it gets far longer.
 */
export interface SidecarTimeouts {
  readonly stateMs: number;
  /**
   * Reminder calls go on to the scheduler, which answers slowly under load (5 s was exceeded on
   * a busy 2-core machine), and a reminder lost after its turn committed is a schedule lost: a
   * longer limit, still finite.
   */
  readonly reminderMs: number;
  readonly invokeMs: number;
  readonly otherMs: number;
}

export const DEFAULT_SIDECAR_TIMEOUTS: SidecarTimeouts = { stateMs: 5_000, reminderMs: 30_000, invokeMs: 120_000, otherMs: 10_000 };

/** A non-2xx answer of the sidecar, with what it said. */
export class DaprError extends Error {
  constructor(
    readonly status: number,
    readonly body: string,
    what: string,
  ) {
    super(`${what}: dapr answered ${status}: ${describe(body)}`);
    this.name = "DaprError";
  }
}

function describe(body: string): string {
  try {
    const parsed = daprErrorSchema.safeParse(JSON.parse(body));
    if (parsed.success && parsed.data.message) return parsed.data.message;
  } catch {
    // Not JSON: show it as it came.
  }
  return body.slice(0, 500);
}

const enc = encodeURIComponent;

/**
 * The sidecar's documented HTTP API (actors, state, reminders). We talk HTTP rather than through
 * @dapr/dapr's actor client so the same small surface serves calls, the state transaction and
 * reminders, and every answer is checked here. node:http with a keep-alive agent, not fetch:
 * every turn costs two sidecar round trips, and fetch's per-request overhead made our Dapr path
 * about a third slower than the plain SDK's (bench/dapr-actors.bench.ts).
 */
export class SidecarClient {
  private readonly base: string;
  private readonly agent = new Agent({ keepAlive: true });

  constructor(
    httpPort: number,
    host = "127.0.0.1",
    private readonly timeouts: SidecarTimeouts = DEFAULT_SIDECAR_TIMEOUTS,
  ) {
    this.base = `http://${host}:${httpPort}/v1.0`;
  }

  /** One request; past `timeoutMs` it is aborted (its socket destroyed) and DaprTimeoutError thrown. */
  private send(method: string, path: string, timeoutMs: number, body?: string, extraHeaders: Record<string, string> = {}): Promise<{ ok: boolean; status: number; text: string }> {
    return new Promise((resolve, reject) => {
      const headers: Record<string, string | number> = { ...extraHeaders, ...(body === undefined ? {} : { "content-type": "application/json", "content-length": Buffer.byteLength(body) }) };
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        req.destroy();
        reject(new DaprTimeoutError(method, path, timeoutMs));
      }, timeoutMs);
      const fail = (err: Error): void => {
        clearTimeout(timer);
        if (!timedOut) reject(err);
      };
      const req = request(`${this.base}${path}`, { method, agent: this.agent, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("error", fail);
        res.on("end", () => {
          clearTimeout(timer);
          const status = res.statusCode ?? 0;
          resolve({ ok: status >= 200 && status < 300, status, text: Buffer.concat(chunks).toString("utf8") });
        });
      });
      req.on("error", fail);
      req.end(body);
    });
  }

  /** Calls an actor method wherever placement put it; the body is the method's JSON result. */
  async invoke(type: string, id: string, method: string, argText: string | undefined, callId?: string): Promise<string> {
    const headers: Record<string, string> = callId === undefined ? {} : { [CALL_ID_HEADER]: callId };
    // The request this call works for, so the turn's log lines on whichever replica runs it carry its id.
    const requestId = currentRequestId();
    if (requestId !== undefined) headers[REQUEST_ID_HEADER] = requestId;
    const res = await this.send("PUT", `/actors/${enc(type)}/${enc(id)}/method/${enc(method)}`, this.timeouts.invokeMs, argText, headers);
    if (!res.ok) throw new DaprError(res.status, res.text, `${type}/${id}.${method}`);
    return res.text;
  }

  /** The stored JSON value as text, or undefined when the key is absent (204). */
  async getState(type: string, id: string, key: string): Promise<string | undefined> {
    const res = await this.send("GET", `/actors/${enc(type)}/${enc(id)}/state/${enc(key)}`, this.timeouts.stateMs);
    if (res.status === 204 || (res.ok && res.text.length === 0)) return undefined;
    if (!res.ok) throw new DaprError(res.status, res.text, `state ${type}/${id} ${key}`);
    return res.text;
  }

  /** All of a turn's state changes in one transactional request. */
  async transact(type: string, id: string, operations: readonly StateOperation[]): Promise<void> {
    const res = await this.send("POST", `/actors/${enc(type)}/${enc(id)}/state`, this.timeouts.stateMs, JSON.stringify(operations));
    if (!res.ok) throw new DaprError(res.status, res.text, `state transaction ${type}/${id}`);
  }

  async setReminder(type: string, id: string, name: string, reminder: DaprReminder): Promise<void> {
    const res = await this.send("POST", `/actors/${enc(type)}/${enc(id)}/reminders/${enc(name)}`, this.timeouts.reminderMs, JSON.stringify(reminder));
    if (!res.ok) throw new DaprError(res.status, res.text, `reminder ${type}/${id} ${name}`);
  }

  async deleteReminder(type: string, id: string, name: string): Promise<void> {
    const res = await this.send("DELETE", `/actors/${enc(type)}/${enc(id)}/reminders/${enc(name)}`, this.timeouts.reminderMs);
    // Deleting a reminder that is already gone is fine.
    if (!res.ok && res.status !== 404) throw new DaprError(res.status, res.text, `delete reminder ${type}/${id} ${name}`);
  }

  async publish(pubsub: string, topic: string, body: string): Promise<void> {
    const res = await this.send("POST", `/publish/${enc(pubsub)}/${enc(topic)}`, this.timeouts.otherMs, body);
    if (!res.ok) throw new DaprError(res.status, res.text, `publish ${pubsub}/${topic}`);
  }

  /**
   * Asks daprd to shut down gracefully (its documented `POST /v1.0/shutdown`): it withdraws this
   * app's actor types from placement and deactivates the actors here while the app still answers.
   */
  async shutdown(): Promise<void> {
    const res = await this.send("POST", "/shutdown", this.timeouts.otherMs);
    if (!res.ok) throw new DaprError(res.status, res.text, "shutdown");
  }

  /** The sidecar's metadata, for readiness checks. */
  async metadata(): Promise<unknown> {
    const res = await this.send("GET", "/metadata", this.timeouts.otherMs);
    if (!res.ok) throw new DaprError(res.status, res.text, "metadata");
    return JSON.parse(res.text) as unknown;
  }
}

/** Milliseconds as a Go duration, the form Dapr's reminder API takes. */
export function goDuration(ms: number): string {
  // A market period scaled by a replay speed that does not divide it (300,000 ms at 7x) is not
  // whole milliseconds: rounded, every firing would come a little early, and the drift adds up.
  if (!Number.isInteger(ms)) return `${Math.max(0, Math.round(ms * 1000))}us`;
  return `${Math.max(0, ms)}ms`;
}
