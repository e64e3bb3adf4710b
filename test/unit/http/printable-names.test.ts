import { describe, expect, it } from "vitest";
import { generateKeyBody } from "../../../src/http/schemas/keys.js";
import { newsletterBody } from "../../../src/http/schemas/newsletter.js";

describe("names people give are printable text", () => {
  const hostile = ["a\u0000b", "bell\u0007", "abc\u202Etxt.exe", "x\u2066y", "esc\u001b[31m", "tab\tinside", "c1\u0085"];

  it.each(hostile)("refuses %j as a key name and as a newsletter name", (name) => {
    for (const r of [generateKeyBody.safeParse({ name, email: "a@example.com" }), newsletterBody.safeParse({ name, email: "a@example.com" })]) {
      expect(r.success).toBe(false);
      expect(r.error?.issues[0]).toMatchObject({ path: ["name"], message: "must not contain control or bidirectional-override characters" });
    }
  });

  it("keeps letters of every script, punctuation and emoji", () => {
    for (const name of ["Zoë 漢字 Ωmega", "O'Brien & Co.", "🚀 desk", "محمد"]) {
      expect(generateKeyBody.safeParse({ name, email: "a@example.com" }).success).toBe(true);
      expect(newsletterBody.safeParse({ name, email: "a@example.com" }).success).toBe(true);
    }
    expect(newsletterBody.safeParse({ name: null, email: "a@example.com" }).success).toBe(true);
  });
});
