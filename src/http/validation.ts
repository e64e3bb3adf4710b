import type { z } from "zod";
import { validationError, type ValidationIssue } from "./errors.js";

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
      return "enum";
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

/** Parses or throws the 422 of DECISIONS 2. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown, location: InputLocation): z.infer<S> {
  const r = schema.safeParse(input);
  if (!r.success) throw validationError(toIssues(r.error, location, input));
  return r.data;
}
