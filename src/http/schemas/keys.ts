import { z } from "zod";
import { EMAIL_ADDRESS, EMAIL_MAX_LENGTH } from "../../domain/access/email-address.js";
import { TIERS } from "../../domain/access/tiers.js";
import { PRINTABLE_TEXT, PRINTABLE_TEXT_MESSAGE } from "../../domain/access/printable-text.js";

export const generateKeyBody = z.strictObject({
  name: z
    .string()
    .trim()
    .min(1)
    .max(100)
    .regex(PRINTABLE_TEXT, PRINTABLE_TEXT_MESSAGE)
    .describe("Trimmed of surrounding whitespace first: the lengths count what is left, so a name of spaces only is refused"),
  // A pattern (not `format: email`, whose RFC reading differs): the OpenAPI document states
  // exactly the addresses accepted.
  email: z.string().max(EMAIL_MAX_LENGTH).meta({ pattern: EMAIL_ADDRESS.source }).pipe(z.email({ pattern: EMAIL_ADDRESS })),
});

export const issuedKeySchema = z
  .object({
    api_key: z.string().describe("Shown once; it cannot be recovered."),
    key_prefix: z.string(),
    tier: z.enum(TIERS),
    daily_limit: z.number().int(),
    name: z.string().nullable(),
    email: z.string().nullable(),
    created_at: z.string(),
    message: z.string(),
  })
  .meta({ id: "IssuedKey" });

export const currentKeySchema = z
  .object({
    key_prefix: z.string().describe("The key's first characters, as generation showed them and an operator's key list shows them; never the key"),
    tier: z.enum(TIERS),
    name: z.string().nullable().describe("The name given when the key was generated"),
    created_at: z.string().describe("When this key was issued (a rotated key: when it was rotated in)"),
    daily_limit: z.number().int().describe("Calls a UTC day (X-RateLimit-Limit)"),
    calls_today: z
      .number()
      .int()
      .describe("Calls counted today, this one included, by this key and the keys it was rotated from: a rotation hands no fresh quota"),
    remaining_today: z.number().int().describe("Calls left today (X-RateLimit-Remaining)"),
    resets_at: z.string().describe("The next 00:00 UTC, when the daily count starts again (X-RateLimit-Reset as an ISO time)"),
    per_minute_limit: z.number().int().describe("Calls a minute this tier allows"),
  })
  .meta({ id: "CurrentKey" });

export const deactivatedSchema = z.object({ deactivated: z.literal(true) });
