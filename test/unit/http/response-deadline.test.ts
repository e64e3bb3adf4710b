import { describe, expect, it } from "vitest";
import { responseDeadlineMs } from "../../../src/http/app.js";

describe("the response deadline", () => {
  it("is four times the request timeout, and never past what a Node timer can wait (beyond it, Node fires after 1 ms)", () => {
    expect(responseDeadlineMs(30_000)).toBe(120_000);
    expect(responseDeadlineMs(600_000_000)).toBe(2_147_483_647);
  });
});
