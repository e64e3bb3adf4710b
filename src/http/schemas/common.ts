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

/** Pagination of DECISIONS 2: page ≥ 1 (default 1), per_page 1..500 (default 100). */
export const pageQuery = {
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  per_page: z.coerce.number().int().min(1).max(500).default(100),
};
