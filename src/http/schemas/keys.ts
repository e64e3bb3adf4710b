import { z } from "zod";
import { TIERS } from "../../domain/access/tiers.js";
import { PRINTABLE_TEXT, PRINTABLE_TEXT_MESSAGE } from "./common.js";

export const generateKeyBody = z.strictObject({
  name: z.string().trim().min(1).max(100).regex(PRINTABLE_TEXT, PRINTABLE_TEXT_MESSAGE),
  // zod's e-mail pattern, stated as a pattern (not `format: email`, whose RFC reading differs, e.g.
  // on local parts over 64 characters): the document promises exactly the addresses accepted.
  email: z.string().max(254).meta({ pattern: z.regexes.email.source }).pipe(z.email()),
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

export const deactivatedSchema = z.object({ deactivated: z.literal(true) });
