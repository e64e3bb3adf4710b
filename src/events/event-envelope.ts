import { z } from "zod";
import { jsonSchema, type Json } from "../runtime/json.js";

/**
 * What subscribers receive (SPEC "Webhook events": event, timestamp, data), plus an id that
 * stays the same on every redelivery so consumers can de-duplicate exactly.
 */
export interface EventEnvelope {
  readonly id: string;
  readonly event: string;
  /** Emission time, ISO 8601 with milliseconds, unique per event type (DECISIONS 7). */
  readonly timestamp: string;
  readonly data: Json;
}

export const eventEnvelopeSchema = z.object({
  id: z.string().min(1),
  event: z.string().min(1),
  timestamp: z.iso.datetime({ precision: 3 }),
  data: jsonSchema,
});
