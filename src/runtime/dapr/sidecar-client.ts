import { Agent, request } from "node:http";
import { z } from "zod";

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

  constructor(httpPort: number, host = "127.0.0.1") {
    this.base = `http://${host}:${httpPort}/v1.0`;
  }

  private send(method: string, path: string, body?: string): Promise<{ ok: boolean; status: number; text: string }> {
    return new Promise((resolve, reject) => {
      const headers: Record<string, string | number> = body === undefined ? {} : { "content-type": "application/json", "content-length": Buffer.byteLength(body) };
      const req = request(`${this.base}${path}`, { method, agent: this.agent, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("error", reject);
        res.on("end", () => {
          const status = res.statusCode ?? 0;
          resolve({ ok: status >= 200 && status < 300, status, text: Buffer.concat(chunks).toString("utf8") });
        });
      });
      req.on("error", reject);
      req.end(body);
    });
  }

  /** Calls an actor method wherever placement put it; the body is the method's JSON result. */
  async invoke(type: string, id: string, method: string, argText: string | undefined): Promise<string> {
    const res = await this.send("PUT", `/actors/${enc(type)}/${enc(id)}/method/${enc(method)}`, argText);
    if (!res.ok) throw new DaprError(res.status, res.text, `${type}/${id}.${method}`);
    return res.text;
  }

  /** The stored JSON value as text, or undefined when the key is absent (204). */
  async getState(type: string, id: string, key: string): Promise<string | undefined> {
    const res = await this.send("GET", `/actors/${enc(type)}/${enc(id)}/state/${enc(key)}`);
    if (res.status === 204 || (res.ok && res.text.length === 0)) return undefined;
    if (!res.ok) throw new DaprError(res.status, res.text, `state ${type}/${id} ${key}`);
    return res.text;
  }

  /** All of a turn's state changes in one transactional request. */
  async transact(type: string, id: string, operations: readonly StateOperation[]): Promise<void> {
    const res = await this.send("POST", `/actors/${enc(type)}/${enc(id)}/state`, JSON.stringify(operations));
    if (!res.ok) throw new DaprError(res.status, res.text, `state transaction ${type}/${id}`);
  }

  async setReminder(type: string, id: string, name: string, reminder: DaprReminder): Promise<void> {
    const res = await this.send("POST", `/actors/${enc(type)}/${enc(id)}/reminders/${enc(name)}`, JSON.stringify(reminder));
    if (!res.ok) throw new DaprError(res.status, res.text, `reminder ${type}/${id} ${name}`);
  }

  async deleteReminder(type: string, id: string, name: string): Promise<void> {
    const res = await this.send("DELETE", `/actors/${enc(type)}/${enc(id)}/reminders/${enc(name)}`);
    // Deleting a reminder that is already gone is fine.
    if (!res.ok && res.status !== 404) throw new DaprError(res.status, res.text, `delete reminder ${type}/${id} ${name}`);
  }

  async publish(pubsub: string, topic: string, body: string): Promise<void> {
    const res = await this.send("POST", `/publish/${enc(pubsub)}/${enc(topic)}`, body);
    if (!res.ok) throw new DaprError(res.status, res.text, `publish ${pubsub}/${topic}`);
  }

  /** The sidecar's metadata, for readiness checks. */
  async metadata(): Promise<unknown> {
    const res = await this.send("GET", "/metadata");
    if (!res.ok) throw new DaprError(res.status, res.text, "metadata");
    return JSON.parse(res.text) as unknown;
  }
}

/** Milliseconds as a Go duration, the form Dapr's reminder API takes. */
export function goDuration(ms: number): string {
  return `${Math.max(0, Math.round(ms))}ms`;
}
