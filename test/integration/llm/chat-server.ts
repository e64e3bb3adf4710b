import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { LlmError } from "../../../src/llm/chat-model.js";

/** What the fake provider does for one request. */
export type Reply =
  | { kind: "content"; content: string | null }
  /** OpenAI's documented refusal: `content` null, the model's refusal in `message.refusal`. */
  | { kind: "refusal"; refusal: string }
  | { kind: "status"; status: number; body: string; headers?: Record<string, string> }
  | { kind: "hang"; ms: number }
  | { kind: "raw"; body: string }
  | { kind: "gzip"; body: Buffer };

export interface Received {
  readonly path: string;
  readonly headers: IncomingMessage["headers"];
  readonly body: { model: string; messages: { role: string; content: string }[]; response_format?: { type: string; json_schema?: unknown }; temperature?: number; max_tokens?: number; max_completion_tokens?: number };
}

/** The documented OpenAI chat-completions success body around one assistant message. */
export function completion(content: string | null, refusal: string | null = null): string {
  return JSON.stringify({
    id: "chatcmpl-test",
    object: "chat.completion",
    created: 1_700_000_000,
    model: "test-model",
    choices: [{ index: 0, message: { role: "assistant", content, refusal }, logprobs: null, finish_reason: "stop" }],
    usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
    system_fingerprint: "fp_test",
  });
}

/** Whether the request is the Chief Judge's (its system prompt says so). */
export function isChiefRequest(r: Received): boolean {
  return r.body.messages[0]?.content.startsWith("You are the Chief Judge") ?? false;
}

/** A well-behaved Chief Judge: explains the ruling its prompt gives ("Ruling: BUY."), naming it. */
export function chiefExplains(r: Received): Reply {
  const ruling = /^Ruling: ([A-Z_]+)\./m.exec(r.body.messages[1]?.content ?? "")?.[1] ?? "";
  return { kind: "content", content: JSON.stringify({ rationale: "Flows and trend agree.", explanation: `The council rules ${ruling}: buyers are in control. Risk is moderate.` }) };
}

/** The LlmError a call ends in; anything else (or no failure) fails the test. */
export async function llmFailure(p: Promise<unknown>): Promise<LlmError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof LlmError) return err;
    throw err;
  }
  throw new Error("expected a failure");
}

/** The documented OpenAI error body. */
export function errorBody(message: string, type: string, code: string | null = null): string {
  return JSON.stringify({ error: { message, type, param: null, code } });
}

/**
 * A local HTTP server speaking the chat-completions protocol. Replies come from a script,
 * one per request, falling back to `fallback` when the script is used up.
 */
export class ChatServer {
  readonly received: Received[] = [];
  private script: Reply[] = [];
  fallback: Reply | ((req: Received) => Reply) = { kind: "content", content: "{}" };
  private server: Server | undefined;
  private readonly sockets = new Set<import("node:net").Socket>();

  async start(): Promise<string> {
    this.server = createServer((req, res) => void this.handle(req, res));
    this.server.on("connection", (s) => {
      this.sockets.add(s);
      s.on("close", () => this.sockets.delete(s));
    });
    await new Promise<void>((r) => this.server?.listen(0, "127.0.0.1", r));
    const { port } = this.server.address() as AddressInfo;
    return `http://127.0.0.1:${port}/v1`;
  }

  async stop(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((r) => (this.server ? this.server.close(() => r()) : r()));
  }

  queue(...replies: Reply[]): void {
    this.script.push(...replies);
  }

  reset(): void {
    this.script = [];
    this.received.length = 0;
    this.fallback = { kind: "content", content: "{}" };
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const received: Received = { path: req.url ?? "", headers: req.headers, body: JSON.parse(Buffer.concat(chunks).toString("utf8")) as Received["body"] };
    this.received.push(received);
    if (req.method !== "POST" || req.url !== "/v1/chat/completions") {
      res.writeHead(404, { "content-type": "application/json" }).end(errorBody("Unknown path", "invalid_request_error"));
      return;
    }
    const next = this.script.shift();
    const reply = next ?? (typeof this.fallback === "function" ? this.fallback(received) : this.fallback);
    switch (reply.kind) {
      case "content":
        res.writeHead(200, { "content-type": "application/json" }).end(completion(reply.content));
        return;
      case "refusal":
        res.writeHead(200, { "content-type": "application/json" }).end(completion(null, reply.refusal));
        return;
      case "status":
        res.writeHead(reply.status, { "content-type": "application/json", ...reply.headers }).end(reply.body);
        return;
      case "raw":
        res.writeHead(200, { "content-type": "application/json" }).end(reply.body);
        return;
      case "gzip":
        res.writeHead(200, { "content-type": "application/json", "content-encoding": "gzip" }).end(reply.body);
        return;
      case "hang":
        // Headers go out, the body never completes in time: the timeout must cover the body too.
        res.writeHead(200, { "content-type": "application/json" });
        res.write('{"id":"chatcmpl-slow",');
        setTimeout(() => res.end(`"choices":[{"message":{"content":"{}"}}]}`), reply.ms).unref();
        return;
    }
  }
}
