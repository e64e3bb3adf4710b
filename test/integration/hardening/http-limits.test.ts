import { connect, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../../src/config/env.js";
import { captureLogger } from "../../support/capture-logger.js";
import { createKey, startService, type RunningService } from "../../support/service.js";
import { waitFor } from "../../support/wait-for.js";
import { probeRoutes, type ProbeState } from "../../support/probe-routes.js";

/** Issue 19 items 3, 4 (authenticate before parse), 5, 6 and 8, over real sockets. */

interface RawExchange {
  /** Everything the server sent before it closed the connection. */
  readonly text: string;
  readonly elapsedMs: number;
}

/** Opens a TCP connection, lets `drive` write to it, and resolves when the server closes it. */
function rawExchange(port: number, drive: (socket: Socket) => void): Promise<RawExchange> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    let text = "";
    const socket = connect(port, "127.0.0.1", () => drive(socket));
    socket.on("data", (d: Buffer) => (text += d.toString()));
    socket.on("error", (err: NodeJS.ErrnoException) => (err.code === "ECONNRESET" ? undefined : reject(err)));
    socket.on("close", () => resolve({ text, elapsedMs: performance.now() - started }));
  });
}

const portOf = (svc: RunningService): number => Number(new URL(svc.url).port);

describe("request bodies: the client's faults are 4xx, never an unhandled error (items 3, 4)", () => {
  let svc: RunningService;
  const captured = captureLogger("debug");
  /** The lines written so far, as JSON text. */
  const lines = (): string[] => captured.lines.map((l) => JSON.stringify(l));

  beforeAll(async () => {
    svc = await startService({}, { logger: captured.logger });
  });
  afterAll(() => svc.stop());

  const errorLines = (): string[] => lines().filter((l) => (JSON.parse(l) as { level: number }).level >= 50);

  it.each(["gzip", "deflate", "br"])("answers a corrupt %s body 400 in the DECISIONS 2 shape, without an error log", async (encoding) => {
    for (const path of ["/v1/newsletter/subscribe", "/v1/keys/generate"]) {
      const res = await fetch(`${svc.url}${path}`, {
        method: "POST",
        headers: { "content-type": "application/json", "content-encoding": encoding },
        body: "notgzip",
      });
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({ detail: "Request body does not match its Content-Encoding" });
    }
    expect(errorLines()).toEqual([]);
  });

  it("treats a client that aborts its body as the client's doing", async () => {
    // A keyed route, so the per-IP limits of the public ones (hit above) cannot answer first.
    const key = await createKey(svc, "free");
    const before = captured.lines.length;
    const socket = connect(portOf(svc), "127.0.0.1");
    await new Promise<void>((resolve) => socket.once("connect", () => resolve()));
    socket.write(`POST /v1/keys/rotate HTTP/1.1\r\nHost: x\r\nX-API-Key: ${key}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"a":`);
    // The server has the headers once it starts reading the body; then the client goes.
    await new Promise((resolve) => setTimeout(resolve, 100));
    socket.destroy();
    await waitFor(async () => lines().slice(before).some((l) => l.includes("client aborted its request body")), 5_000, "the abort to be logged").catch((e: unknown) => {
      throw new Error(`${String(e)}\n${lines().slice(before).join("\n")}`);
    });
    expect(errorLines()).toEqual([]);
  });

  it("authenticates before it parses: a keyless caller with a bad body learns about the key, not the body", async () => {
    for (const [method, path] of [["POST", "/v1/keys/rotate"], ["DELETE", "/v1/keys/current"], ["POST", "/v1/tao/council/run"], ["POST", "/v1/webhooks"]] as const) {
      const res = await fetch(`${svc.url}${path}`, { method, headers: { "content-type": "application/json" }, body: "{not json" });
      expect(res.status, `${method} ${path}`).toBe(401);
      expect(await res.json()).toMatchObject({ detail: { error: "missing_api_key" } });
    }
    const key = await createKey(svc, "free");
    const res = await fetch(`${svc.url}/v1/keys/rotate`, { method: "POST", headers: { "content-type": "application/json", "x-api-key": key }, body: "{not json" });
    expect(res.status).toBe(422);
    expect(await res.json()).toMatchObject({ detail: [{ loc: ["body"], type: "json_invalid" }] });
  });

  it("answers a path that does not percent-decode 404 Not Found, to anyone, without an error log", async () => {
    const key = await createKey(svc, "basic");
    for (const path of ["/v1/webhooks/%ZZ", "/v1/webhooks/%E0%A4%A/deliveries", "/assets/%ZZ"]) {
      for (const headers of [{}, { "x-api-key": key }] as Record<string, string>[]) {
        const res = await fetch(`${svc.url}${path}`, { headers });
        expect(res.status, path).toBe(404);
        expect(await res.json()).toEqual({ detail: "Not Found" });
      }
    }
    expect(errorLines()).toEqual([]);
  });

  it("names at most 50 faults in one 422, so an anonymous body of unknown keys is not answered ten times its size", async () => {
    const body = Object.fromEntries([["name", "n"], ["email", "n@example.com"], ...Array.from({ length: 7000 }, (_, i) => [i.toString(36), 1])]);
    const res = await fetch(`${svc.url}/v1/keys/generate`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    expect(res.status).toBe(422);
    const text = await res.text();
    const { detail } = JSON.parse(text) as { detail: { loc: unknown[]; type: string }[] };
    expect(detail).toHaveLength(50);
    expect(detail.every((d) => d.type === "extra_forbidden")).toBe(true);
    expect(text.length).toBeLessThan(JSON.stringify(body).length);
  });

  it("answers a body that is not JSON 422 json_invalid whatever its Content-Type says (a form body was read as no body)", async () => {
    const key = await createKey(svc, "basic");
    for (const [type, body] of [["application/x-www-form-urlencoded", "webhook_id=wh_x"], ["text/plain", '{"webhook_id":"wh_x"}']] as const) {
      const res = await fetch(`${svc.url}/v1/webhooks/test`, { method: "POST", headers: { "content-type": type, "x-api-key": key }, body });
      expect(res.status, type).toBe(422);
      expect(await res.json()).toEqual({ detail: [{ loc: ["body"], msg: "Content-Type must be application/json", type: "json_invalid" }] });
    }
    // No body at all is still no body: the test goes to every webhook of the key (none here).
    const none = await fetch(`${svc.url}/v1/webhooks/test`, { method: "POST", headers: { "x-api-key": key } });
    expect(none.status).toBe(200);
    expect(await none.json()).toEqual({ delivered: 0, failed: 0, results: [] });
  });

  it("logs each request with its route pattern and a path whose keys and e-mail addresses are masked", async () => {
    const key = await createKey(svc, "basic");
    const before = captured.lines.length;
    await fetch(`${svc.url}/v1/keys/svc_pro_LEAKTESTLEAKTESTLEAK`);
    await fetch(`${svc.url}/v1/webhooks/dave.leak@example.org`, { method: "DELETE", headers: { "x-api-key": key } });
    await fetch(`${svc.url}/v1/webhooks/dave.leak%40example.org`, { method: "DELETE", headers: { "x-api-key": key } });
    await waitFor(async () => lines().slice(before).filter((l) => l.includes('"msg":"request"')).length >= 3, 5_000, "three access lines");
    const written = lines().slice(before).join("\n");
    expect(written).not.toMatch(/LEAKTEST|dave\.leak/);
    const access = lines().slice(before).map((l) => JSON.parse(l) as { msg: string; route?: string | null; path?: string; req_id?: string }).filter((l) => l.msg === "request");
    expect(access.map((l) => [l.route, l.path])).toEqual([
      [null, "/v1/keys/[secret]"],
      ["/v1/webhooks/:id", "/v1/webhooks/[email]"],
      ["/v1/webhooks/:id", "/v1/webhooks/[email]"],
    ]);
    for (const l of access) expect(l.req_id).toMatch(/./);
  });

  it("refuses control and bidirectional-override characters in names people give, and keeps other scripts", async () => {
    const post = (path: string, body: unknown) =>
      fetch(`${svc.url}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    for (const name of ["a\u0000b", "bell\u0007", "abc\u202Etxt.exe", "x\u2066y", "esc\u001b[31m", "tab\tinside"]) {
      // The newsletter's every-request IP limit is spent above; its schema is unit-tested.
      const res = await post("/v1/keys/generate", { name, email: "names@example.com" });
      expect(res.status, JSON.stringify(name)).toBe(422);
      const { detail } = (await res.json()) as { detail: { loc: unknown[]; msg: string }[] };
      expect(detail[0]).toMatchObject({ loc: ["body", "name"], msg: "must not contain control or bidirectional-override characters" });
    }
    const res = await post("/v1/keys/generate", { name: "Zoë 漢字 Ωmega", email: "zoe@example.com" });
    expect(res.status).toBe(201);
    expect(await res.json()).toMatchObject({ name: "Zoë 漢字 Ωmega" });
  });
});

describe("server limits are the configured ones (item 8)", () => {
  let svc: RunningService;
  const captured = captureLogger("info");
  const probe: ProbeState = { computed: 0 };
  beforeAll(async () => {
    svc = await startService(
      { HTTP_HEADERS_TIMEOUT_MS: "1000", HTTP_REQUEST_TIMEOUT_MS: "2000", HTTP_KEEP_ALIVE_TIMEOUT_MS: "500", METRICS_PORT: "0" },
      { logger: captured.logger, routeSets: [probeRoutes(probe)] },
    );
  });
  afterAll(() => svc.stop());

  it("answers 408 and closes a connection whose headers never finish, at the headers timeout", async () => {
    const got = await rawExchange(portOf(svc), (s) => s.write("GET /v1/health HTTP/1.1\r\nHost: x\r\n"));
    expect(got.text).toMatch(/^HTTP\/1\.1 408/);
    // Node's default check interval (30 s) used to stretch this to ~52 s.
    expect(got.elapsedMs).toBeLessThan(5_000);
  });

  it("answers 408 and closes a request whose body trickles past the request timeout", async () => {
    let timer: NodeJS.Timeout | undefined;
    const got = await rawExchange(portOf(svc), (s) => {
      s.write("POST /v1/newsletter/subscribe HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 10000\r\n\r\n{");
      timer = setInterval(() => s.writable && s.write(" "), 200);
    });
    clearInterval(timer);
    expect(got.text).toMatch(/^HTTP\/1\.1 408/);
    expect(got.elapsedMs).toBeLessThan(6_000);
  });

  it("closes an idle keep-alive connection after the keep-alive timeout", async () => {
    const got = await rawExchange(portOf(svc), (s) => s.write("GET /v1/health/live HTTP/1.1\r\nHost: x\r\nConnection: keep-alive\r\n\r\n"));
    expect(got.text).toMatch(/^HTTP\/1\.1 200/);
    // 500 ms configured: Node announces whole seconds (0) and closes within its check interval;
    // its default (5 s) would announce 5 and hold the connection past 5 s.
    expect(got.text).toMatch(/Keep-Alive: timeout=0\r\n/);
    expect(got.elapsedMs).toBeLessThan(3_000);
  });

  it("closes a connection whose answer is not read within the response deadline (4x the request timeout)", async () => {
    // Many answers asked for at once and none read: the server's writes back up behind the
    // client's full receive window. Node's own limits end with the request, so this held the
    // connection for as long as the client liked.
    const socket = connect(portOf(svc), "127.0.0.1");
    await new Promise<void>((resolve) => socket.once("connect", () => resolve()));
    socket.pause();
    const one = (await (await fetch(`${svc.url}/v1/openapi.json`)).arrayBuffer()).byteLength;
    const asked = 400;
    socket.write("GET /v1/openapi.json HTTP/1.1\r\nHost: x\r\n\r\n".repeat(asked));
    // Past the deadline (8 s here), then the client reads what the server had sent.
    await new Promise((resolve) => setTimeout(resolve, 10_000));
    let received = 0;
    const closed = new Promise<void>((resolve) => socket.once("close", () => resolve()));
    socket.on("data", (d: Buffer) => (received += d.length));
    socket.on("error", () => undefined);
    socket.resume();
    await closed;
    // Cut off mid-way: far less than every answer, and the connection is gone.
    expect(received).toBeGreaterThan(0);
    expect(received).toBeLessThan((asked * one) / 2);
  }, 30_000);

  it("logs and counts an answer the response deadline cut off", async () => {
    const before = captured.lines.length;
    let release = (): void => undefined;
    probe.gate = new Promise<void>((resolve) => (release = resolve));
    // Asked and never answered within the deadline (8 s here): the server closes the connection.
    const got = await rawExchange(portOf(svc), (s) => s.write("GET /v1/probe/slow HTTP/1.1\r\nHost: x\r\n\r\n"));
    expect(got.text).toBe("");
    expect(got.elapsedMs).toBeGreaterThanOrEqual(7_500);
    // Written as the server's side of the connection closes, a moment after the client's.
    await waitFor(async () => captured.lines.slice(before).some((l) => l.ended !== undefined), 5_000, "the cut-off request to be logged");
    // The handler is still at work: nothing of the answer had been sent.
    release();
    const cut = captured.lines.slice(before).filter((l) => l.ended !== undefined);
    expect(cut).toHaveLength(1);
    expect(cut[0]).toMatchObject({ level: 40, method: "GET", route: "/v1/probe/slow", status: null, msg: "request cut off: its answer was not read within the response deadline" });
    const metrics = await (await fetch(`http://127.0.0.1:${String(svc.service.metricsPort())}/metrics`)).text();
    expect(metrics).toMatch(/http_requests_total\{method="GET",route="\/v1\/probe\/slow",status="cut_off"\} 1/);
  }, 20_000);

  it("logs and counts a request its client abandons before the answer is finished", async () => {
    const before = captured.lines.length;
    let started = (): void => undefined;
    const inFlight = new Promise<void>((resolve) => (started = resolve));
    let release = (): void => undefined;
    probe.gate = new Promise<void>((resolve) => (release = resolve));
    probe.onSlowStarted = () => started();
    const got = rawExchange(portOf(svc), (s) => {
      s.write("GET /v1/probe/slow HTTP/1.1\r\nHost: x\r\n\r\n");
      void inFlight.then(() => s.destroy());
    });
    expect((await got).text).toBe("");
    await waitFor(async () => captured.lines.slice(before).some((l) => l.ended === "closed"), 5_000, "the unanswered request to be logged");
    // Logged when the connection went, while the handler was still at work.
    release();
    expect(captured.lines.slice(before).find((l) => l.ended === "closed")).toMatchObject({ level: 30, route: "/v1/probe/slow", status: null });
    const metrics = await (await fetch(`http://127.0.0.1:${String(svc.service.metricsPort())}/metrics`)).text();
    expect(metrics).toMatch(/http_requests_total\{method="GET",route="\/v1\/probe\/slow",status="closed"\} [1-9]/);
  });

  it("refuses a headers timeout longer than the request timeout at start-up", () => {
    expect(() => loadConfig({ HTTP_HEADERS_TIMEOUT_MS: "5000", HTTP_REQUEST_TIMEOUT_MS: "1000" })).toThrow(/HTTP_HEADERS_TIMEOUT_MS/);
  });
});

describe("the connection cap (item 8)", () => {
  let svc: RunningService;
  const held: Socket[] = [];
  beforeAll(async () => {
    svc = await startService({ HTTP_MAX_CONNECTIONS: "3", HTTP_KEEP_ALIVE_TIMEOUT_MS: "20000" });
  });
  afterAll(async () => {
    for (const s of held) s.destroy();
    await svc.stop();
  });

  /** A keep-alive connection the server has accepted and answered once, then left open. */
  const openAnswered = (): Promise<Socket> =>
    new Promise((resolve, reject) => {
      const s = connect(portOf(svc), "127.0.0.1", () => s.write("GET /v1/health/live HTTP/1.1\r\nHost: x\r\n\r\n"));
      s.once("data", () => resolve(s));
      s.once("close", () => reject(new Error("closed before an answer")));
      s.on("error", () => undefined);
    });

  it("closes connections beyond HTTP_MAX_CONNECTIONS without an answer, and serves again once one ends", async () => {
    for (let i = 0; i < 3; i++) held.push(await openAnswered());
    const refused = await rawExchange(portOf(svc), (s) => s.write("GET /v1/health/live HTTP/1.1\r\nHost: x\r\n\r\n"));
    expect(refused.text).toBe("");
    held.pop()?.destroy();
    const again = await waitFor(() => openAnswered().catch(() => undefined), 5_000, "a free connection slot");
    held.push(again);
  });
});

describe("/metrics lives on its own port (item 5)", () => {
  let svc: RunningService;
  beforeAll(async () => {
    svc = await startService({ METRICS_PORT: "0" });
  });
  afterAll(() => svc.stop());

  it("is not on the API port, is on METRICS_PORT on loopback, and is off when METRICS_PORT is unset", async () => {
    expect((await fetch(`${svc.url}/metrics`)).status).toBe(404);
    const res = await fetch(`http://127.0.0.1:${String(svc.service.metricsPort())}/metrics`);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("nodejs_version_info");
    expect(svc.service.config.METRICS_HOST).toBe("127.0.0.1");
    expect(loadConfig({}).METRICS_PORT).toBeUndefined();
  });
});

describe("TRUST_PROXY (item 6)", () => {
  it("refuses true at start-up unless forced, and accepts hop counts and addresses", () => {
    expect(() => loadConfig({ TRUST_PROXY: "true" })).toThrow(ConfigError);
    expect(() => loadConfig({ TRUST_PROXY: "true" })).toThrow(/TRUST_PROXY_FORCE/);
    expect(loadConfig({ TRUST_PROXY: "true", TRUST_PROXY_FORCE: "true" }).TRUST_PROXY).toBe("true");
    expect(loadConfig({ TRUST_PROXY: "1" }).TRUST_PROXY).toBe("1");
    expect(loadConfig({ TRUST_PROXY: "10.0.0.0/8" }).TRUST_PROXY).toBe("10.0.0.0/8");
  });

  it("with one trusted hop, a client cannot walk past the per-IP key generation limit by varying X-Forwarded-For", async () => {
    const svc = await startService({ TRUST_PROXY: "1" });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 7; i++) {
        // The client writes the left entries; the proxy (one hop) appends the address it saw.
        const res = await fetch(`${svc.url}/v1/keys/generate`, {
          method: "POST",
          headers: { "content-type": "application/json", "x-forwarded-for": `203.0.113.${i}, 198.51.100.7` },
          body: JSON.stringify({ name: `n${i}`, email: `n${i}@example.com` }),
        });
        statuses.push(res.status);
      }
      expect(statuses.slice(0, 5)).toEqual([201, 201, 201, 201, 201]);
      expect(statuses.slice(5)).toEqual([429, 429]);
    } finally {
      await svc.stop();
    }
  });
});
