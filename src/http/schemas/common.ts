import { z } from "zod";

/** Fields every cached response carries (SPEC.md "Caching"). */
export const cacheFields = {
  cached: z.boolean(),
  cache_ttl_seconds: z.number().int().nonnegative(),
};

export const accessErrorSchema = z
  .object({
    detail: z.looseObject({
      error: z.string(),
      message: z.string(),
    }),
  })
  .meta({ id: "AccessError", description: "Authentication, tier, quota and domain errors" });

export const validationErrorSchema = z
  .object({
    detail: z.array(
      z.object({
        loc: z.array(z.union([z.string(), z.number().int()])),
        msg: z.string(),
        type: z.string(),
      }),
    ),
  })
  .meta({ id: "ValidationError" });

export const plainErrorSchema = z.object({ detail: z.string() }).meta({ id: "PlainError" });

export const serverErrorSchema = z
  .object({ detail: z.string(), request_id: z.string() })
  .meta({ id: "ServerError", description: "Unexpected fault; the request id finds the log line" });

/** An integer as a query string writes it: decimal digits, a minus sign allowed so ranges name the fault. */
const DECIMAL_INTEGER = /^-?[0-9]+$/;

const INTEGER_EXPECTED = "Input should be a valid integer, written in decimal digits";

/**
 * An integer query parameter within [min, max]. Only decimal digits are read as a number:
 * `z.coerce.number()` (JavaScript's `Number()`) took `0x10` for 16, `1e2` for 100, a blank for 0
 * and " 5" for 5, none of them the integer SPEC asks for; anything else stays a string and is
 * refused with a 422 that says an integer is expected. Documented as an integer in OpenAPI.
 * A written integer out of range is told the bound it broke (`validation-messages.ts`): the
 * message here is for a wrong type only, because one given to `z.number()` is zod's for every
 * check of the schema (`per_page=501` was told it is not an integer). The range is checked
 * before `.int()`, whose own safe-range check would otherwise speak first for
 * `page=9007199254740992`.
 */
export function queryInt(min: number, max: number) {
  return z.preprocess(
    (v) => (typeof v === "string" && DECIMAL_INTEGER.test(v) ? Number(v) : v),
    z
      .number({ error: (issue) => (issue.code === "invalid_type" && issue.input !== undefined ? INTEGER_EXPECTED : undefined) })
      .min(min)
      .max(max)
      .int({ error: INTEGER_EXPECTED }),
  );
}

/**
 * Pagination of DECISIONS 2: page ≥ 1 (default 1), per_page 1..500 (default 100). Any page past
 * the end is a 200 with an empty list and the true total, however far: the only upper bound is
 * the largest integer JSON numbers carry exactly.
 */
export const pageQuery = {
  page: queryInt(1, Number.MAX_SAFE_INTEGER).default(1),
  per_page: queryInt(1, 500).default(100),
};


/**
 * A fixed whole number SPEC types as int (`total_signals` 27, `nextRefreshMinutes` 30): a plain
 * `z.literal` is documented as a JSON number, and generated clients would read it as a float.
 */
export function intLiteral<N extends number>(value: N) {
  return z.literal(value).meta({ type: "integer" });
}

/**
 * A shared (named) shape, or null. Not `.nullable()`: on a schema with an OpenAPI id that makes
 * the component itself nullable, so every other use of it (where null never comes) would say
 * null may come too. This keeps the component as it is and puts the null at this use only.
 */
export function orNull<T extends z.ZodType>(schema: T) {
  return z.union([schema, z.null()]);
}
