import { describe, expect, it } from "vitest";
import { errorSummary } from "../../../src/logging/error-summary.js";

describe("errorSummary", () => {
  it("keeps an error's name, code, command and reply code, never its message", () => {
    const err = Object.assign(new Error("Can't send mail - all recipients were rejected: 550 <dave@example.org>"), {
      code: "EENVELOPE",
      command: "RCPT TO",
      responseCode: 550,
      rejected: ["dave@example.org"],
    });
    expect(errorSummary(err)).toEqual({ name: "Error", code: "EENVELOPE", command: "RCPT TO", responseCode: 550 });
  });

  it("takes an HTTP status as the reply code", () => {
    expect(errorSummary(Object.assign(new Error("answered HTTP 503"), { status: 503 }))).toEqual({ name: "Error", responseCode: 503 });
  });

  it("leaves out a code or command that is not an identifier, which could quote anything", () => {
    const err = Object.assign(new TypeError("x"), { code: "https://hooks.example/T0SECRET", command: "RCPT TO:<dave@example.org>" });
    expect(errorSummary(err)).toEqual({ name: "TypeError" });
  });

  it("names what was thrown when it is not an object", () => {
    expect(errorSummary("dave@example.org")).toEqual({ name: "string" });
  });
});
