import type { z } from "zod";
import { LlmError, type AttemptBudget, type ChatMessage, type ChatModel } from "./chat-model.js";
import { extractJsonObject } from "./json-reply.js";

function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`)
    .join("; ");
}

/**
 * Ask for a JSON object and validate it with zod. A reply that is not JSON or fails the schema
 * gets `repairs` more chances: the model sees its own reply and what was wrong with it. After
 * that it is rejected with `invalid_reply`; an invalid answer is never passed on.
 */
export async function askStructured<T>(
  model: ChatModel,
  messages: readonly ChatMessage[],
  schema: z.ZodType<T>,
  budget?: AttemptBudget,
  repairs = 1,
): Promise<T> {
  const convo: ChatMessage[] = [...messages];
  let problem = "";
  for (let round = 0; round <= repairs; round++) {
    const text = await model.complete({ messages: convo, json: true, maxTokens: 600 }, budget);
    const json = extractJsonObject(text);
    if (json === undefined) {
      problem = "the reply was not a JSON object";
    } else {
      const parsed = schema.safeParse(json);
      if (parsed.success) return parsed.data;
      problem = describeIssues(parsed.error);
    }
    convo.push(
      { role: "assistant", content: text },
      { role: "user", content: `That reply is invalid (${problem}). Answer again with only the JSON object, all fields present.` },
    );
  }
  throw new LlmError("invalid_reply", `model reply rejected after ${repairs} repair attempt(s): ${problem}`);
}
