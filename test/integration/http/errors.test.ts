import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startService, type RunningService } from "../../support/service.js";
import { probeRoutes } from "../../support/probe-routes.js";

let svc: RunningService;
beforeAll(async () => {
  svc = await startService({ METRICS_PORT: "0" }, { routeSets: [probeRoutes({ computed: 0 })] });
});
afterAll(() => svc.stop());

const post = (path: string, body: string, type = "application/json") =>
  fetch(`${svc.url}${path}`, { method: "POST", headers: { "content-type": type }, body });

describe("the error contract of DECISIONS 2, on every path", () => {
  it("answers an unknown path 404 with the documented body and a request id", async () => {
    const res = await fetch(`${svc.url}/v1/nothing/here`);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ detail: "Not Found" });
    expect(res.headers.get("x-request-id")).toMatch(/\S{8,}/);
  });

  it("answers a known path with another method 405 and names the allowed ones", async () => {
    const res = await fetch(`${svc.url}/v1/health`, { method: "DELETE" });
    expect(res.status).toBe(405);
    expect(await res.json()).toEqual({ detail: "Method Not Allowed" });
    expect(res.headers.get("allow")).toContain("GET");
    const put = await fetch(`${svc.url}/v1/webhooks/abc`, { method: "PUT" });
    expect(put.status).toBe(405);
  });

  it("answers 404 for a path that only looks like a known one (a dot is a dot, not any character)", async () => {
    expect((await fetch(`${svc.url}/v1/openapi.json`, { method: "DELETE" })).status).toBe(405);
    const res = await fetch(`${svc.url}/v1/openapi_json`);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ detail: "Not Found" });
    expect(res.headers.get("allow")).toBeNull();
  });

  it("refuses a body over 64 KiB with 413", async () => {
    const res = await post("/v1/newsletter/subscribe", JSON.stringify({ email: "a@b.co", website: "x".repeat(70_000) }));
    expect(res.status).toBe(413);
    // A plain-string detail (DECISIONS 2), naming the limit, and nothing of the parser's internals.
    expect(await res.json()).toEqual({ detail: expect.stringContaining("64 KiB") });
  });

  it("answers malformed JSON 422 json_invalid in the loc/msg/type shape", async () => {
    const res = await post("/v1/probe/echo", '{"n": 1, "label": ');
    expect(res.status).toBe(422);
    const body = (await res.json()) as { detail: { loc: unknown[]; msg: string; type: string }[] };
    expect(body.detail[0]?.type).toBe("json_invalid");
    expect(body.detail[0]?.loc[0]).toBe("body");
  });

  it("names each invalid field of the body and the query", async () => {
    const res = await post("/v1/probe/echo?page=0", JSON.stringify({ n: "seven" }));
    expect(res.status).toBe(422);
    const { detail } = (await res.json()) as { detail: { loc: (string | number)[]; msg: string; type: string }[] };
    const locs = detail.map((d) => d.loc.join("."));
    expect(locs).toEqual(expect.arrayContaining(["body.n", "body.label"]));
    for (const d of detail) expect(d.msg.length).toBeGreaterThan(0);
  });

  it("answers the query's fault 422 with loc query", async () => {
    const res = await post("/v1/probe/echo?page=-3", JSON.stringify({ n: 1, label: "ok" }));
    expect(res.status).toBe(422);
    const { detail } = (await res.json()) as { detail: { loc: (string | number)[] }[] };
    expect(detail[0]?.loc).toEqual(["query", "page"]);
  });

  it("treats huge numbers, non-JSON types and unicode as input errors or data, never as a 500", async () => {
    const cases: [string, number][] = [
      ['{"n": 1e400, "label": "x"}', 422],
      ['{"n": 123456789012345678901234567890, "label": "x"}', 422],
      ['{"n": 1.5, "label": "x"}', 422],
      ['[1,2,3]', 422],
      ['"just a string"', 422],
      ["null", 422],
      ['{"n": 5, "label": "Ωμέγα 🚀"}', 200],
      ['{"n": 5, "label": "\\u0000\\ud800"}', 200],
      ['{"n": 5, "label": "x", "__proto__": {"admin": true}}', 200],
    ];
    for (const [raw, status] of cases) {
      const res = await post("/v1/probe/echo", raw);
      expect({ raw, status: res.status }).toEqual({ raw, status });
    }
    const unicode = await post("/v1/probe/echo", '{"n": 5, "label": "Ωμέγα 🚀"}');
    expect(await unicode.json()).toEqual({ n: 5, label: "Ωμέγα 🚀", page: 1 });
  });

  it("answers a body sent as text/plain as a validation error, not a 500", async () => {
    const res = await post("/v1/probe/echo", "n=1", "text/plain");
    expect(res.status).toBe(422);
  });

  it("hides internals of an unexpected fault behind 500 and a request id", async () => {
    const res = await fetch(`${svc.url}/v1/probe/fault`);
    expect(res.status).toBe(500);
    const text = await res.text();
    expect(text).not.toMatch(/secret|mongodb|stack|at \w+ \(/);
    const body = JSON.parse(text) as { detail: string; request_id: string };
    expect(body.detail).toBe("Internal Server Error");
    expect(body.request_id).toBe(res.headers.get("x-request-id"));
  });

  it("keeps a caller-supplied request id, and sends helmet's headers", async () => {
    const res = await fetch(`${svc.url}/v1/health`, { headers: { "x-request-id": "trace-abc-123" } });
    expect(res.headers.get("x-request-id")).toBe("trace-abc-123");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("x-powered-by")).toBeNull();
  });
});

describe("health", () => {
  it("GET /v1/health and /v1/health/live answer ok with version, environment and a UTC timestamp", async () => {
    for (const path of ["/v1/health", "/v1/health/live"]) {
      const res = await fetch(`${svc.url}${path}`);
      expect(res.status).toBe(200);
      const body = (await res.json()) as Record<string, string>;
      expect(body.status).toBe("ok");
      expect(body.version).toMatch(/^\d+\.\d+\.\d+/);
      expect(body.environment).toBe("local");
      expect(Math.abs(Date.parse(body.timestamp ?? "") - Date.now())).toBeLessThan(60_000);
      expect(body.timestamp).toMatch(/Z$/);
    }
  });

  it("answers a literal path written with a trailing slash or in capitals as Express routes it: the same route, its own metric label", async () => {
    // Exact literal paths are found in a Map; these spellings miss it and go through Express's routing.
    for (const path of ["/v1/health/", "/V1/Health"]) {
      const res = await fetch(`${svc.url}${path}`);
      expect(res.status).toBe(200);
      expect(((await res.json()) as { status: string }).status).toBe("ok");
    }
    const metrics = await (await fetch(`http://127.0.0.1:${String(svc.service.metricsPort())}/metrics`)).text();
    expect(metrics).not.toMatch(/http_requests_total\{[^}]*route="unmatched"[^}]*status="200"/);
  });

  it("HEAD /v1/health answers 200 without a body", async () => {
    const res = await fetch(`${svc.url}/v1/health`, { method: "HEAD" });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe("");
  });

  it("GET /v1/health/ready reports the store reachable", async () => {
    const res = await fetch(`${svc.url}/v1/health/ready`);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ status: "ok" });
  });
});

describe("documentation and metrics", () => {
  it("publishes an OpenAPI document listing every SPEC.md path", async () => {
    const res = await fetch(`${svc.url}/v1/openapi.json`);
    expect(res.status).toBe(200);
    const doc = (await res.json()) as { openapi: string; paths: Record<string, Record<string, unknown>> };
    expect(doc.openapi).toMatch(/^3\.1/);
    const expected: [string, string][] = [
      ["/v1/verdict/latest", "get"], ["/v1/regime/current", "get"], ["/v1/regime/stats", "get"],
      ["/v1/agents/performance", "get"], ["/v1/charting/signal", "get"], ["/v1/signals/latest", "get"],
      ["/v1/regime/history", "get"], ["/v1/macro/correlation", "get"], ["/v1/signals/history", "get"],
      ["/v1/signals/weights", "get"], ["/v1/council/latest", "get"], ["/v1/sol/council", "get"],
      ["/v1/tao/council/run", "post"], ["/v1/tao/council", "get"], ["/v1/tao/status", "get"],
      ["/v1/tao/track-record", "get"], ["/v1/sol/track-record", "get"], ["/v1/eth/track-record", "get"],
      ["/v1/ghost/stats", "get"], ["/v1/ghost/performance", "get"], ["/v1/health", "get"], ["/v1/health/live", "get"],
      ["/v1/newsletter/subscribe", "post"], ["/v1/keys/generate", "post"], ["/v1/webhooks", "post"],
      ["/v1/webhooks", "get"], ["/v1/webhooks/{id}", "delete"], ["/v1/webhooks/test", "post"],
    ];
    for (const [path, method] of expected) expect(doc.paths[path]?.[method], `${method} ${path}`).toBeDefined();
  });

  it("serves Prometheus metrics counting the requests it answered, on its own port only", async () => {
    await fetch(`${svc.url}/v1/health`);
    expect((await fetch(`${svc.url}/metrics`)).status).toBe(404);
    const res = await fetch(`http://127.0.0.1:${String(svc.service.metricsPort())}/metrics`);
    expect(res.headers.get("content-type")).toContain("text/plain");
    const text = await res.text();
    expect(text).toMatch(/http_requests_total\{[^}]*route="\/v1\/health"[^}]*\} \d+/);
  });
});
