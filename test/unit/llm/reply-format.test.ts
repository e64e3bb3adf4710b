import { describe, expect, it } from "vitest";
import { SOL_RULINGS } from "../../../src/domain/market/vocabulary.js";
import { replyFormat } from "../../../src/llm/reply-format.js";
import { agentReplySchema, chiefReplySchema } from "../../../src/llm/reply-schemas.js";

describe("the JSON Schema sent with each question comes from the zod schema that validates the reply", () => {
  it("agent vote: the council's rulings, confidence 0..1, a non-empty thesis, nothing else", () => {
    const { name, schema } = replyFormat("agent_vote", agentReplySchema(SOL_RULINGS));
    expect(name).toBe("agent_vote");
    expect(schema).toEqual({
      type: "object",
      properties: {
        ruling: { type: "string", enum: [...SOL_RULINGS] },
        confidence: { type: "number", minimum: 0, maximum: 1 },
        thesis: { type: "string", minLength: 1, maxLength: 500 },
      },
      required: ["ruling", "confidence", "thesis"],
      additionalProperties: false,
    });
  });

  it("Chief Judge: rationale and explanation, both required and non-empty", () => {
    const { schema } = replyFormat("chief_summary", chiefReplySchema("BUY"));
    expect(schema).toMatchObject({
      type: "object",
      required: ["rationale", "explanation"],
      additionalProperties: false,
      properties: { rationale: { type: "string", minLength: 1 }, explanation: { type: "string", minLength: 1, maxLength: 500 } },
    });
    expect(schema).not.toHaveProperty("$schema");
  });
});
