import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface FakeAnswer {
  readonly status?: number;
  readonly body?: unknown;
  /** Raw text instead of JSON (to serve a non-JSON body). */
  readonly raw?: string;
  readonly headers?: Readonly<Record<string, string>>;
  /** Delay before answering, to exercise client timeouts. */
  readonly delayMs?: number;
}

/**
 * A real HTTP server on a free loopback port answering like a provider would. Each request
 * takes the next scripted answer (the last one repeats), so a test can script 429 → 200 etc.
 */
export class FakeProviderServer {
  readonly requests: string[] = [];
  /** Request bodies in arrival order (JSON-RPC calls are told apart by theirs). */
  readonly bodies: string[] = [];
  private answers: FakeAnswer[] = [];
  private router: ((path: string, body: string) => FakeAnswer) | null = null;
  private readonly server: Server;

  private constructor(server: Server) {
    this.server = server;
  }

  static async start(): Promise<FakeProviderServer> {
    const server = createServer();
    const fake = new FakeProviderServer(server);
    server.on("request", (req, res) => fake.handle(req, res));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    return fake;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  script(...answers: FakeAnswer[]): void {
    this.answers = answers;
    this.router = null;
    this.requests.length = 0;
    this.bodies.length = 0;
  }

  /** Answer by path (and body, for POSTs) instead (for clients that send concurrent requests). */
  route(router: (path: string, body: string) => FakeAnswer): void {
    this.router = router;
    this.requests.length = 0;
    this.bodies.length = 0;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => this.answer(req, res, Buffer.concat(chunks).toString("utf8")));
  }

  private answer(req: IncomingMessage, res: ServerResponse, body: string): void {
    this.requests.push(req.url ?? "");
    this.bodies.push(body);
    const answer = this.router?.(req.url ?? "", body) ?? (this.answers.length > 1 ? this.answers.shift() : this.answers[0]) ?? { status: 404, body: {} };
    const send = () => {
      if (res.destroyed) return;
      res.writeHead(answer.status ?? 200, { "content-type": "application/json", ...answer.headers });
      res.end(answer.raw ?? JSON.stringify(answer.body ?? null));
    };
    if (answer.delayMs) setTimeout(send, answer.delayMs).unref();
    else send();
  }
}
