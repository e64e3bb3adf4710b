import { z } from "zod";

/**
 * How the Dapr host writes actor state values: the JSON text inside a one-field object,
 * `{"$json": "<text>"}`, never the JSON value itself. Dapr 1.16.2's actor state over its Redis
 * store keeps only 6 decimals of a JSON number (measured: 0.123456789 came back 0.123457 and
 * 1.5e-7 came back 0), which broke a reloaded regime model (issue 17); a string keeps every digit.
 */
const wrappedSchema = z.object({ $json: z.string() }).strict();

export function toStoredValue(text: string): { readonly $json: string } {
  return { $json: text };
}

/**
 * The JSON text of a stored value as daprd returns it (itself JSON text). Values written before
 * this form existed are read as they are.
 */
export function fromStoredText(stored: string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(stored);
  } catch {
    return stored;
  }
  const wrapped = wrappedSchema.safeParse(parsed);
  return wrapped.success ? wrapped.data.$json : stored;
}
