import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createKey, startService, type RunningService } from "../../support/service.js";
import { EVENT_TYPES } from "../../../src/domain/market/vocabulary.js";

/** Issue 19 item 4: the document says what the service does (the differences Schemathesis found). */

interface Doc {
  components: { schemas: Record<string, { type?: string | string[]; properties?: Record<string, unknown> }> };
  paths: Record<string, Record<string, { responses: Record<string, { content?: { "application/json": { schema: unknown } } }>; requestBody?: unknown; parameters?: { name: string; schema: Record<string, unknown> }[] }>>;
}

let svc: RunningService;
let doc: Doc;
beforeAll(async () => {
  svc = await startService();
  doc = (await (await fetch(`${svc.url}/v1/openapi.json`)).json()) as Doc;
});
afterAll(() => svc.stop());

const schemaOf = (path: string, method: string, status: number): unknown => doc.paths[path]?.[method]?.responses[String(status)]?.content?.["application/json"].schema;

describe("the OpenAPI document agrees with the service", () => {
  it("documents every event a subscriber may receive under `webhooks`: its envelope, its data and the signature headers", async () => {
    const full = (await (await fetch(`${svc.url}/v1/openapi.json`)).json()) as {
      webhooks?: Record<string, { post: { parameters: { name: string; in: string }[]; requestBody: { content: { "application/json": { schema: { properties: Record<string, unknown> } } } } } }>;
    };
    expect(Object.keys(full.webhooks ?? {}).sort()).toEqual([...EVENT_TYPES, "webhook.test"].sort());
    const dataRefs: Record<string, string> = {
      "verdict.new": "VerdictNewData",
      "council.new": "CouncilNewData",
      "regime.change": "RegimeChangeData",
      "ghost.signal": "GhostSignalData",
      "macro.alert": "MacroAlertData",
      "webhook.test": "WebhookTestData",
    };
    for (const [event, ref] of Object.entries(dataRefs)) {
      const post = full.webhooks?.[event]?.post;
      const body = post?.requestBody.content["application/json"].schema.properties;
      expect(body?.event, event).toEqual({ type: "string", enum: [event] });
      expect(body?.data, event).toEqual({ $ref: `#/components/schemas/${ref}` });
      expect(post?.parameters.filter((p) => p.in === "header").map((p) => p.name), event).toEqual(
        expect.arrayContaining(["x-service-signature", "x-service-delivery", "webhook-id", "webhook-timestamp", "webhook-signature"]),
      );
      expect(doc.components.schemas[ref], ref).toBeDefined();
    }
  });

  it("documents the webhook routes' 404 as the coded object they answer, and {id} routes' also as the plain one a path that does not decode gets", async () => {
    expect(schemaOf("/v1/webhooks/test", "post", 404)).toEqual({ $ref: "#/components/schemas/AccessError" });
    const both = { anyOf: [{ $ref: "#/components/schemas/AccessError" }, { $ref: "#/components/schemas/PlainError" }] };
    const templated: readonly (readonly [string, string])[] = [["/v1/webhooks/{id}", "delete"], ["/v1/webhooks/{id}", "patch"], ["/v1/webhooks/{id}/deliveries", "get"], ["/v1/webhooks/{id}/rotate-secret", "post"]];
    for (const [path, method] of templated) {
      expect(schemaOf(path, method, 404), `${method} ${path}`).toEqual(both);
    }
    const res = await fetch(`${svc.url}/v1/webhooks/%ZZ`, { method: "DELETE", headers: { "x-api-key": await createKey(svc, "basic") } });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ detail: "Not Found" });
  });

  it("documents the body errors on every route that reads a body, as one sent to a route that takes none gets", async () => {
    const bodyless: readonly (readonly [string, string])[] = [["/v1/keys/rotate", "post"], ["/v1/keys/current", "delete"], ["/v1/tao/council/run", "post"], ["/v1/webhooks/{id}", "delete"]];
    for (const [path, method] of bodyless) {
      for (const status of [400, 413, 415, 422]) expect(doc.paths[path]?.[method]?.responses[String(status)], `${status} on ${method} ${path}`).toBeDefined();
    }
    const res = await fetch(`${svc.url}/v1/tao/council/run`, { method: "POST", headers: { "x-api-key": await createKey(svc, "pro"), "content-type": "application/json" }, body: "{bad" });
    expect(res.status).toBe(422);
    expect(doc.paths["/v1/tao/council/run"]?.post?.responses["422"]).toBeDefined();
  });

  it("documents no refusal a route cannot give: no 403 on routes any key may call, no 429 on revoking a key", () => {
    expect(doc.paths["/v1/charting/signal"]?.get?.responses["403"]).toBeUndefined();
    expect(doc.paths["/v1/tao/council"]?.get?.responses["403"]).toBeDefined();
    expect(doc.paths["/v1/keys/current"]?.delete?.responses["429"]).toBeUndefined();
    // Rotating is held to its own limit (5 an hour) but never to the quota.
    expect(doc.paths["/v1/keys/rotate"]?.post?.responses["429"]).toBeDefined();
    // Reading the key's status likewise: 30 a minute, never the quota.
    expect(doc.paths["/v1/keys/current"]?.get?.responses["429"]).toBeDefined();
  });

  it("documents HEAD /v1/health, as SPEC lists it, and the service answers it with the GET's headers and no body", async () => {
    const head = doc.paths["/v1/health"]?.head;
    expect(head?.responses["200"]).toBeDefined();
    expect(head?.responses["200"]?.content).toBeUndefined();
    const res = await fetch(`${svc.url}/v1/health`, { method: "HEAD" });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(await res.text()).toBe("");
  });

  it("puts null at the uses that send it, never into a shared component every other use refers to", () => {
    const nullable = Object.entries(doc.components.schemas).filter(([, s]) => Array.isArray(s.type) && s.type.includes("null"));
    expect(nullable.map(([id]) => id)).toEqual([]);
    // A council session always names how its votes were calibrated; a verdict may have no council.
    const propertyOf = (path: string, field: string): unknown => {
      const id = ((schemaOf(path, "get", 200) as { $ref?: string } | undefined)?.$ref ?? "").split("/").at(-1) ?? "";
      return doc.components.schemas[id]?.properties?.[field];
    };
    expect(propertyOf("/v1/council/latest", "agents_confidence_basis")).toEqual({ $ref: "#/components/schemas/AgentsConfidenceBasis" });
    expect(propertyOf("/v1/verdict/latest", "agents_confidence_basis")).toEqual({ anyOf: [{ $ref: "#/components/schemas/AgentsConfidenceBasis" }, { type: "null" }] });
  });

  it("documents the newsletter's 429 as {detail: string}", () => {
    expect(schemaOf("/v1/newsletter/subscribe", "post", 429)).toEqual({ $ref: "#/components/schemas/PlainError" });
  });

  it("gives url and email their formats and page its maximum", () => {
    const body = (path: string): Record<string, Record<string, unknown>> =>
      (doc.paths[path]?.post?.requestBody as { content: { "application/json": { schema: { properties: Record<string, Record<string, unknown>> } } } }).content["application/json"].schema.properties;
    expect(body("/v1/webhooks").url).toMatchObject({ format: "uri" });
    // E-mail: zod's own pattern rather than `format: email`, whose RFC reading is not zod's.
    expect(body("/v1/keys/generate").email).toMatchObject({ pattern: expect.stringContaining("@") });
    expect(body("/v1/newsletter/subscribe").email).toMatchObject({ pattern: expect.stringContaining("@") });
    const page = doc.paths["/v1/signals/history"]?.get?.parameters?.find((p) => p.name === "page");
    // Any page past the end is an empty 200 (DECISIONS 2): bounded only by exact JSON integers.
    expect(page?.schema).toMatchObject({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER });
    expect(body("/v1/keys/generate").name).toMatchObject({ pattern: expect.stringContaining("\\u0000") });
  });

  it("documents 405 and 500 everywhere and 415 wherever a body is read", () => {
    for (const [path, methods] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(methods)) {
        expect(op.responses["405"], `${method} ${path}`).toBeDefined();
        expect(op.responses["500"], `${method} ${path}`).toBeDefined();
        if (op.requestBody !== undefined) expect(op.responses["415"], `${method} ${path}`).toBeDefined();
      }
    }
  });

  it("answers an undocumented method on /v1/webhooks/test 405 naming only POST", async () => {
    for (const method of ["OPTIONS", "DELETE", "PATCH", "GET"]) {
      const res = await fetch(`${svc.url}/v1/webhooks/test`, { method });
      expect(res.status, method).toBe(405);
      expect(res.headers.get("allow"), method).toBe("POST");
    }
  });
});
