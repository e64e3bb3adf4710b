import { describe, expect, it } from "vitest";
import { goDuration } from "../../../src/runtime/dapr/sidecar-client.js";

describe("reminder durations sent to Dapr", () => {
  it("keeps whole milliseconds as they are and a scaled period that is not whole to the microsecond, so firings do not drift early", () => {
    expect(goDuration(5_000)).toBe("5000ms");
    expect(goDuration(0)).toBe("0ms");
    // 5 market minutes at 7x: rounded to 42857 ms, each firing would come 1 market ms early.
    expect(goDuration(300_000 / 7)).toBe("42857143us");
    expect(goDuration(-3)).toBe("0ms");
  });
});
