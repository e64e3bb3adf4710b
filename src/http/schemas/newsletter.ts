import { z } from "zod";
import { EMAIL_ADDRESS, EMAIL_MAX_LENGTH } from "../../domain/access/email-address.js";
import { PRINTABLE_TEXT, PRINTABLE_TEXT_MESSAGE } from "../../domain/access/printable-text.js";

/**
 * SPEC.md "Newsletter request"; address validity (400) is checked after the size rules (422).
 * Strict like every other body: an unknown key is the caller's mistake and is named (422).
 */
export const newsletterBody = z.strictObject({
  // Documented as an e-mail address; a well-sized invalid one is 400 (DECISIONS 4), hence no pipe.
  email: z.string().max(EMAIL_MAX_LENGTH).meta({ pattern: EMAIL_ADDRESS.source }),
  name: z.string().max(100).regex(PRINTABLE_TEXT, PRINTABLE_TEXT_MESSAGE).nullable().optional(),
  website: z.string().max(500).default(""),
});

export const messageSchema = z.object({ message: z.string() });
