import { z } from "zod";
import type { JsonReplyFormat } from "./chat-model.js";

/**
 * The JSON Schema of a reply, generated from the zod schema that validates it: one source of
 * truth for what the model is asked for and what is accepted. Output side ("io: output"): the
 * shape after zod's repairs is what a well-behaved model should send. `$schema` is dropped:
 * OpenAI's strict mode and llama.cpp's grammar converter want the bare object.
 */
export function replyFormat(name: string, schema: z.ZodType): JsonReplyFormat {
  const { $schema: _drop, ...bare } = z.toJSONSchema(schema, { io: "output", unrepresentable: "any" }) as Record<string, unknown>;
  return { name, schema: bare };
}
