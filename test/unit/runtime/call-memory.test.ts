import { describe, expect, it } from "vitest";
import { CALL_ANSWER_MAX_CHARS, CALL_MEMORY_MAX, CALL_MEMORY_MS, callIdSchema, remember } from "../../../src/runtime/dapr/call-memory.js";

describe("an actor's call memory", () => {
  it("keeps each committed call's answer under its id, once", () => {
    const one = remember([], "call-0001", "1", 1_000);
    const again = remember(one, "call-0001", "1", 2_000);
    expect(again).toEqual([{ id: "call-0001", at: 2_000, answer: "1" }]);
  });

  it("forgets calls older than its window, and the oldest beyond its count", () => {
    const old = remember([], "call-old1", "1", 0);
    expect(remember(old, "call-new1", "2", CALL_MEMORY_MS).map((r) => r.id)).toEqual(["call-new1"]);
    let memory = remember([], "call-first", "0", 0);
    for (let i = 1; i <= CALL_MEMORY_MAX; i++) memory = remember(memory, `call-${String(i).padStart(4, "0")}`, String(i), i);
    expect(memory).toHaveLength(CALL_MEMORY_MAX);
    expect(memory.some((r) => r.id === "call-first")).toBe(false);
  });

  it("keeps no answer longer than its bound, only that the call ran", () => {
    expect(remember([], "call-long", "x".repeat(CALL_ANSWER_MAX_CHARS + 1), 0)[0]?.answer).toBeNull();
    expect(remember([], "call-fits", "x".repeat(CALL_ANSWER_MAX_CHARS), 0)[0]?.answer).toHaveLength(CALL_ANSWER_MAX_CHARS);
  });

  it("takes ids our proxy sends and nothing that could smuggle header or path text", () => {
    expect(callIdSchema.safeParse("0b5e3c9a-6f0e-4c7d-9b1a-2f3e4d5c6b7a").success).toBe(true);
    for (const bad of ["", "short", "has space here", "a/b/c/d/e/f", "x".repeat(65)]) expect(callIdSchema.safeParse(bad).success).toBe(false);
  });
});
