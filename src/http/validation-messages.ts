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

/** A string's length, a list's size or a number beyond its bound, in pydantic's words. */
function outOfRange(issue: Extract<RawIssue, { code: "too_small" | "too_big" }>): string | undefined {
  const [bound, count, compare] = issue.code === "too_small" ? [issue.minimum, "at least", "greater than"] : [issue.maximum, "at most", "less than"];
  if (issue.origin === "string") return `String should have ${count} ${plural(bound, "character")}`;
  if (issue.origin === "array" || issue.origin === "set") return `List should have ${count} ${plural(bound, "item")}`;
  if (issue.origin === "number" || issue.origin === "int") return `Input should be ${compare}${issue.inclusive === false ? "" : " or equal to"} ${bound}`;
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
    case "too_big":
      return outOfRange(issue);
    case "invalid_value":
      return issue.input === undefined ? "Field required" : `Input should be ${quoted(issue.values)}`;
    case "invalid_format":
      if (issue.format === "email") return "value is not a valid email address";
      return issue.format === "url" ? "Input should be a valid URL" : undefined;
    default:
      return undefined;
  }
}
