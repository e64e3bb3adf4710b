import type { z } from "zod";

type RawIssue = z.core.$ZodRawIssue;

/** What an `invalid_type` issue expected, in pydantic's words. */
const EXPECTED: Readonly<Partial<Record<string, string>>> = {
  string: "Input should be a valid string",
  number: "Input should be a valid number",
  int: "Input should be a valid integer",
  boolean: "Input should be a valid boolean",
  array: "Input should be a valid list",
  object: "Input should be a valid dictionary",
  record: "Input should be a valid dictionary",
};

const plural = (n: number | bigint, word: string): string => `${n} ${word}${Number(n) === 1 ? "" : "s"}`;

function quoted(values: readonly unknown[]): string {
  const items = values.map((v) => (typeof v === "string" ? `'${v}'` : String(v)));
  return items.length <= 1 ? (items[0] ?? "") : `${items.slice(0, -1).join(", ")} or ${items[items.length - 1]}`;
}

function tooSmall(issue: Extract<RawIssue, { code: "too_small" }>): string | undefined {
  const min = issue.minimum;
  if (issue.origin === "string") return `String should have at least ${plural(min, "character")}`;
  if (issue.origin === "array" || issue.origin === "set") return `List should have at least ${plural(min, "item")}`;
  if (issue.origin === "number" || issue.origin === "int") return `Input should be greater than${issue.inclusive === false ? "" : " or equal to"} ${min}`;
  return undefined;
}

function tooBig(issue: Extract<RawIssue, { code: "too_big" }>): string | undefined {
  const max = issue.maximum;
  if (issue.origin === "string") return `String should have at most ${plural(max, "character")}`;
  if (issue.origin === "array" || issue.origin === "set") return `List should have at most ${plural(max, "item")}`;
  if (issue.origin === "number" || issue.origin === "int") return `Input should be less than${issue.inclusive === false ? "" : " or equal to"} ${max}`;
  return undefined;
}

/**
 * The message pydantic v2 (FastAPI) gives for the fault a zod issue describes. SPEC's 422 body
 * uses FastAPI's `type` vocabulary (`validation.ts` maps it); the messages now read alike, not
 * half in zod's words ("Too big: expected string to have <=100 characters") and half in
 * FastAPI's. Passed per parse, so a message a schema or a check sets itself (an e-mail rule, the
 * https rule, "written in decimal digits") still wins; undefined leaves zod's own.
 */
export function fastApiMessage(issue: RawIssue): string | undefined {
  switch (issue.code) {
    case "invalid_type":
      return issue.input === undefined ? "Field required" : EXPECTED[issue.expected];
    case "too_small":
      return tooSmall(issue);
    case "too_big":
      return tooBig(issue);
    case "invalid_value":
      return `Input should be ${quoted(issue.values)}`;
    case "invalid_format":
      if (issue.format === "email") return "value is not a valid email address";
      return issue.format === "url" ? "Input should be a valid URL" : undefined;
    default:
      return undefined;
  }
}
