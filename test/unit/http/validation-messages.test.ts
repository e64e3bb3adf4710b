import { describe, expect, it } from "vitest";
import { ApiError, type ValidationIssue } from "../../../src/http/error-codes.js";
import { parseInputs } from "../../../src/http/validation.js";
import { createWebhookBody, updateWebhookBody } from "../../../src/http/schemas/webhooks.js";
import { generateKeyBody } from "../../../src/http/schemas/keys.js";
import { pageQuery } from "../../../src/http/schemas/common.js";
import { z } from "zod";

/** The 422 issues a body would get, through the same parse the routes use. */
function issuesOf(schema: z.ZodType, body: unknown, at: "body" | "query" = "body"): ValidationIssue[] {
  try {
    parseInputs(at === "body" ? { body: schema } : { query: schema }, { path: {}, query: at === "query" ? body : {}, body: at === "body" ? body : undefined });
  } catch (err) {
    if (err instanceof ApiError && err.code === "validation_failed") return (err.body as { detail: ValidationIssue[] }).detail;
    throw err;
  }
  return expect.fail("the input was accepted");
}

describe("422 messages read as FastAPI's, beside FastAPI's types", () => {
  it("names the bound a string, a list or a number broke, and a missing field as required", () => {
    expect(issuesOf(generateKeyBody, { name: "a".repeat(101) })).toEqual([
      { loc: ["body", "name"], msg: "String should have at most 100 characters", type: "string_too_long" },
      { loc: ["body", "email"], msg: "Field required", type: "missing" },
    ]);
    expect(issuesOf(createWebhookBody, { url: "https://example.com/h", events: [] })).toEqual([
      { loc: ["body", "events"], msg: "List should have at least 1 item", type: "too_short" },
    ]);
    expect(issuesOf(z.strictObject(pageQuery), { page: "0", per_page: "501" }, "query")).toEqual([
      { loc: ["query", "page"], msg: "Input should be greater than or equal to 1", type: "greater_than_equal" },
      { loc: ["query", "per_page"], msg: "Input should be less than or equal to 500", type: "less_than_equal" },
    ]);
  });

  it("names the expected type and the allowed values", () => {
    expect(issuesOf(updateWebhookBody, { is_active: "yes" })).toEqual([{ loc: ["body", "is_active"], msg: "Input should be a valid boolean", type: "boolean_type" }]);
    expect(issuesOf(createWebhookBody, { url: "https://example.com/h", events: ["verdict.old"] })).toEqual([
      { loc: ["body", "events", 0], msg: "Input should be 'verdict.new', 'council.new', 'regime.change', 'ghost.signal' or 'macro.alert'", type: "enum" },
    ]);
  });

  it("names a required choice that is absent as missing, not as a value outside the choices", () => {
    const assetQuery = z.strictObject({ asset: z.enum(["BTC", "ETH", "SOL", "TAO"]) });
    expect(issuesOf(assetQuery, {}, "query")).toEqual([{ loc: ["query", "asset"], msg: "Field required", type: "missing" }]);
    expect(issuesOf(assetQuery, { asset: "" }, "query")).toEqual([{ loc: ["query", "asset"], msg: "Input should be 'BTC', 'ETH', 'SOL' or 'TAO'", type: "enum" }]);
    expect(issuesOf(createWebhookBody, { url: "https://example.com/h" })).toEqual([{ loc: ["body", "events"], msg: "Field required", type: "missing" }]);
  });

  it("keeps a message the schema states itself", () => {
    expect(issuesOf(createWebhookBody, { url: "http://example.com/h", events: ["verdict.new"] })).toEqual([
      { loc: ["body", "url"], msg: "Input should be a valid URL with scheme https", type: "string_pattern_mismatch" },
    ]);
    expect(issuesOf(generateKeyBody, { name: "a\u0007b", email: "me@example.com" })[0]?.msg).toBe("must not contain control or bidirectional-override characters");
    expect(issuesOf(z.strictObject(pageQuery), { page: "0x10" }, "query")[0]?.msg).toBe("Input should be a valid integer, written in decimal digits");
  });
});
