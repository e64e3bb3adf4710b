import { z } from "zod";

/**
 * The parts of an OpenAI chat-completions response the adapter reads. Loose objects: providers
 * add fields (usage details, system_fingerprint, logprobs) and that must not break parsing.
 */
export const chatCompletionSchema = z.looseObject({
  choices: z
    .array(
      z.looseObject({
        /** `refusal`: OpenAI's structured output puts a model's refusal here, with `content` null. */
        message: z.looseObject({ content: z.string().nullable().optional(), refusal: z.string().nullable().optional().catch(undefined) }),
        finish_reason: z.string().nullable().optional(),
      }),
    )
    .min(1),
  /** Token counts; optional because not every compatible server reports them. */
  usage: z
    .looseObject({ prompt_tokens: z.number().int().nonnegative(), completion_tokens: z.number().int().nonnegative() })
    .nullable()
    .optional()
    .catch(undefined),
});

/** OpenAI-style error body: `{error: {message, type, code}}`. */
export const chatErrorSchema = z.looseObject({
  error: z.looseObject({ message: z.string().optional(), type: z.string().nullable().optional() }),
});
