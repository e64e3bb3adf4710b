import { z } from "zod";

/** What crosses an actor boundary: method arguments and results, state values, reminder payloads. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export const jsonSchema: z.ZodType<Json> = z.lazy(() =>
  z.union([z.null(), z.boolean(), z.number(), z.string(), z.array(jsonSchema), z.record(z.string(), jsonSchema)]),
);

/**
 * Serialises what an actor hands over. Both hosts send values through JSON, so the in-process
 * host does too: an actor that passes a Date or a Map fails the same way everywhere.
 */
export function toJsonText(value: unknown): string {
  const text = JSON.stringify(value);
  // undefined (a method without a result) becomes JSON null rather than an invalid body.
  return text === undefined ? "null" : text;
}

export function fromJsonText(text: string): unknown {
  return JSON.parse(text) as unknown;
}
