import type { z } from "zod";
import { ApiError, type ValidationIssue } from "./error-codes.js";
import { fastApiMessage } from "./validation-messages.js";

export type InputLocation = "query" | "body" | "path";

/** zod issue → FastAPI-style `type`, the vocabulary SPEC.md's 422 example uses. */
function issueType(issue: z.core.$ZodIssue, input: unknown): string {
  switch (issue.code) {
    case "invalid_type":
      return input === undefined ? "missing" : `${issue.expected}_type`;
    case "too_big":
      return issue.origin === "string" ? "string_too_long" : issue.origin === "array" ? "too_long" : "less_than_equal";
    case "too_small":
      return issue.origin === "string" ? "string_too_short" : issue.origin === "array" ? "too_short" : "greater_than_equal";
    case "invalid_format":
      return issue.format === "email" ? "value_error" : "string_pattern_mismatch";
    case "unrecognized_keys":
      return "extra_forbidden";
    case "invalid_value":
      // zod reports a required enum that is absent as a value outside it; FastAPI as missing.
      return input === undefined ? "missing" : "enum";
    case "invalid_union":
      return "union_error";
    case "not_multiple_of":
      return "multiple_of";
    default:
      return "value_error";
  }
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let cur = root;
  for (const p of path) {
    if (cur === null || typeof cur !== "object") return undefined;
    cur = (cur as Record<PropertyKey, unknown>)[p];
  }
  return cur;
}

export function toIssues(error: z.ZodError, location: InputLocation, input: unknown): ValidationIssue[] {
  return error.issues.flatMap((issue) => {
    const path = issue.path.map((p) => (typeof p === "number" ? p : String(p)));
    if (issue.code === "unrecognized_keys") {
      return issue.keys.map((k) => ({ loc: [location, ...path, k], msg: "Extra inputs are not permitted", type: "extra_forbidden" }));
    }
    return [{ loc: [location, ...path], msg: issue.message, type: issueType(issue, valueAt(input, issue.path)) }];
  });
}

/**
 * One issue per field: zod reports every failed check, so `?page=9007199254740992` was told twice
 * that it is too big (`.int()`'s safe range and `.max()`), and a caller reads one fault as two.
 * The first is the one the schema states first.
 */
function firstPerLoc(issues: readonly ValidationIssue[]): ValidationIssue[] {
  const seen = new Set<string>();
  return issues.filter((issue) => {
    const loc = JSON.stringify(issue.loc);
    if (seen.has(loc)) return false;
    seen.add(loc);
    return true;
  });
}

interface InputSchemas {
  readonly path?: z.ZodType;
  readonly query?: z.ZodType;
  readonly body?: z.ZodType;
}

export interface ParsedInputs {
  readonly params: unknown;
  readonly query: unknown;
  readonly body: unknown;
}

/**
 * At most this many issues in one 422. A body of thousands of unknown keys would otherwise be
 * answered with ten times its own size, to anyone, as often as they like (validation failures
 * cost no quota on public routes).
 */
export const MAX_ISSUES = 50;

/**
 * Parses path, query and body together and throws one 422 naming every fault (up to MAX_ISSUES),
 * so a caller fixes a request in one round trip instead of one field at a time.
 */
export function parseInputs(schemas: InputSchemas, raw: { path: unknown; query: unknown; body: unknown }): ParsedInputs {
  const issues: ValidationIssue[] = [];
  const parse = (location: InputLocation, schema: z.ZodType | undefined, input: unknown): unknown => {
    if (!schema) return undefined;
    const r = schema.safeParse(input, { error: fastApiMessage });
    if (r.success) return r.data;
    issues.push(...toIssues(r.error, location, input));
    return undefined;
  };
  const parsed = { params: parse("path", schemas.path, raw.path), query: parse("query", schemas.query, raw.query), body: parse("body", schemas.body, raw.body) };
  if (issues.length > 0) throw new ApiError("validation_failed", { issues: firstPerLoc(issues).slice(0, MAX_ISSUES) });
  return parsed;
}
