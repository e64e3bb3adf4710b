import { gzipSync } from "node:zlib";
import { z } from "zod";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defineRoute } from "../../../src/http/route.js";
import { pageQuery } from "../../../src/http/schemas/common.js";
import { startService, type RunningService } from "../../support/service.js";

/**
 * Audit 2026-11-26, finding 10: a 422 names the fault the caller made. A body under another
 * Content-Type, or one that is JSON but not an object, says so (still `type: json_invalid`,
 * DECISIONS 2), and a field is named once however many of its checks fail.
 */

let svc: RunningService;

const pagedEcho = () => [
  defineRoute({
    method: "post",
    path: "/v1/probe/paged",
    summary: "probe: the pagination query and an object body",
    tags: ["probe"],
    access: { kind: "public" },
    query: z.object({ ...pageQuery }),
    body: z.object({ label: z.string().min(3).regex(/^[a-z]+$/) }).strict(),
    response: z.object({ page: z.number() }),
    handler: async ({ query }) => ({ page: query.page }),
  }),
];

beforeAll(async () => {
  svc = await startService({}, { capabilities: [], routeSets: [pagedEcho] });
});

afterAll(async () => {
  await svc.stop();
});

const post = (query: string, body: string) => fetch(`${svc.url}/v1/probe/paged${query}`, { method: "POST", headers: { "content-type": "application/json" }, body });

describe("422 messages", () => {
  it("tell a JSON scalar body that it must be an object, with type json_invalid", async () => {
    for (const body of ['"string"', "42", "null", " true "]) {
      const res = await post("", body);
      expect({ body, status: res.status }).toEqual({ body, status: 422 });
      expect(await res.json()).toEqual({ detail: [{ loc: ["body"], msg: "Request body must be a JSON object", type: "json_invalid" }] });
    }
  });

  it("refuse a body nested deeper than 32 levels before parsing it, gzipped too, and count brackets in strings as text", async () => {
    const deep = `${"[".repeat(32_000)}${"]".repeat(32_000)}`;
    const tooDeep = { detail: [{ loc: ["body"], msg: "Request body nests deeper than 32 levels", type: "json_invalid" }] };
    const plain = await post("", deep);
    expect(plain.status).toBe(422);
    expect(await plain.json()).toEqual(tooDeep);
    // ~100 bytes on the wire: the cap counts inflated bytes, the depth check reads them too.
    const zipped = gzipSync(Buffer.from(`{"label": ${"[".repeat(40)}`));
    expect(zipped.length).toBeLessThan(200);
    const viaGzip = await fetch(`${svc.url}/v1/probe/paged`, { method: "POST", headers: { "content-type": "application/json", "content-encoding": "gzip" }, body: zipped });
    expect(viaGzip.status).toBe(422);
    expect(await viaGzip.json()).toEqual(tooDeep);
    // 32 levels are allowed (then the schema speaks), and brackets inside a string are not nesting.
    const allowed = await post("", `{"label": ${"[".repeat(31)}${"]".repeat(31)}}`);
    expect(((await allowed.json()) as { detail: { msg: string }[] }).detail[0]?.msg).not.toMatch(/nests deeper/);
    const inString = await post("", JSON.stringify({ label: "[".repeat(100) }));
    expect(((await inString.json()) as { detail: { loc: string[] }[] }).detail[0]?.loc).toEqual(["body", "label"]);
  });

  it("refuse a body in another charset than UTF-8 with 415: in UTF-16, U+2200 holds a quote byte and hid 10,000 levels", async () => {
    const body = Buffer.from(`{"a":"∀","b":${"[".repeat(10_000)}${"]".repeat(10_000)}}`, "utf16le");
    const res = await fetch(`${svc.url}/v1/probe/paged`, { method: "POST", headers: { "content-type": "application/json; charset=utf-16le" }, body });
    expect(res.status).toBe(415);
    expect(await res.json()).toEqual({ detail: "Unsupported request body encoding" });
  });

  it("tell a body under another Content-Type that the Content-Type is the fault, with type json_invalid", async () => {
    for (const type of ["application/x-www-form-urlencoded", "text/plain"]) {
      const res = await fetch(`${svc.url}/v1/probe/paged`, { method: "POST", headers: { "content-type": type }, body: JSON.stringify({ label: "abc" }) });
      expect({ type, status: res.status }).toEqual({ type, status: 422 });
      expect(await res.json()).toEqual({ detail: [{ loc: ["body"], msg: "Content-Type must be application/json", type: "json_invalid" }] });
    }
  });

  it("still call a body that does not parse not valid JSON", async () => {
    const res = await post("", '{"label": ');
    expect(await res.json()).toEqual({ detail: [{ loc: ["body"], msg: "Request body is not valid JSON", type: "json_invalid" }] });
  });

  it("name a field once, however many of its checks fail", async () => {
    const res = await post("?page=9007199254740992", JSON.stringify({ label: "A" }));
    expect(res.status).toBe(422);
    const { detail } = (await res.json()) as { detail: { loc: unknown[]; type: string }[] };
    expect(detail.map((d) => d.loc)).toEqual([
      ["query", "page"],
      ["body", "label"],
    ]);
  });
});
