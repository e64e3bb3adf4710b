import { z } from "zod";
import { PRINTABLE_TEXT, PRINTABLE_TEXT_MESSAGE } from "../domain/access/printable-text.js";
import { isIsoDayOrInstant } from "../config/env.js";
import { EMAIL_MAX_LENGTH } from "../domain/access/email-address.js";
import type { CliIo } from "./io.js";

/**
 * `--from`/`--to`: a day (its 00:00 UTC) or a date-time with its zone, as REPLAY_START. A time
 * without a zone would be read in the machine's own, and `Date.parse` rolls 2024-02-30 over
 * into March: both are refused rather than shifted.
 */
export const isoInstant = z
  .string()
  .refine(isIsoDayOrInstant, {
    message: "must be an ISO date (YYYY-MM-DD, 00:00 UTC) or a date-time with its zone (e.g. 2024-01-01T03:00:00Z)",
  })
  .transform((v) => Date.parse(v));

/** What an operator types that is stored and shown again (a key's name, a reason, a signer). */
export function printableText(max: number) {
  return z.string().trim().min(1).max(max).regex(PRINTABLE_TEXT, PRINTABLE_TEXT_MESSAGE);
}

/** An address as written in a reply or a request, in the form the subscribe route stores: trimmed, lower case. */
export const storedAddress = z
  .string()
  .trim()
  .toLowerCase()
  .pipe(z.string().min(3).max(EMAIL_MAX_LENGTH).includes("@"));

/** The usage and what was wrong, on stderr; exit 2, as for any misuse. */
export function fail(io: CliIo, message: string): number {
  io.stderr.write(`${message}\n`);
  return 2;
}

/** A schema's refusal as the usage plus one line per field. */
export function refused(io: CliIo, usage: string, error: z.ZodError): number {
  return fail(io, `${usage}\n${error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`).join("\n")}`);
}
