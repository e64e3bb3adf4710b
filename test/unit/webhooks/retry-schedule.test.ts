import { describe, expect, it } from "vitest";
import type { DeliveryOutcome } from "../../../src/domain/webhooks/outcome.js";
import { outcomeForStatus } from "../../../src/domain/webhooks/outcome.js";
import { MAX_ATTEMPTS, nextAttempt, retryDelayMs } from "../../../src/domain/webhooks/retry-schedule.js";

const failed: DeliveryOutcome = { kind: "failure", statusCode: 500, error: "http_status", durationMs: 3 };
const timedOut: DeliveryOutcome = { kind: "failure", statusCode: null, error: "timeout", durationMs: 10_000 };

describe("retry schedule", () => {
  it("is exactly 5 s, 25 s, 125 s, then nothing (3 retries, 4 attempts)", () => {
    expect([1, 2, 3, 4].map(retryDelayMs)).toEqual([5_000, 25_000, 125_000, null]);
    expect(retryDelayMs(0)).toBeNull();
    expect(MAX_ATTEMPTS).toBe(4);
  });

  it("schedules retries from the time of the failed attempt", () => {
    const now = 1_000_000;
    expect(nextAttempt(1, failed, now)).toEqual({ kind: "retry", dueAt: now + 5_000 });
    expect(nextAttempt(2, timedOut, now)).toEqual({ kind: "retry", dueAt: now + 25_000 });
    expect(nextAttempt(3, failed, now)).toEqual({ kind: "retry", dueAt: now + 125_000 });
    expect(nextAttempt(4, failed, now)).toEqual({ kind: "exhausted" });
  });

  it("stops at a success or a 410", () => {
    expect(nextAttempt(1, outcomeForStatus(204, 1), 0)).toEqual({ kind: "delivered" });
    expect(nextAttempt(1, outcomeForStatus(410, 1), 0)).toEqual({ kind: "gone" });
  });

  it("counts any 2xx as success and 3xx, 4xx, 5xx as failures", () => {
    expect(outcomeForStatus(200, 1).kind).toBe("success");
    expect(outcomeForStatus(299, 1).kind).toBe("success");
    expect(outcomeForStatus(302, 1)).toMatchObject({ kind: "failure", error: "redirect" });
    expect(outcomeForStatus(404, 1)).toMatchObject({ kind: "failure", error: "http_status" });
    expect(outcomeForStatus(503, 1)).toMatchObject({ kind: "failure", error: "http_status", statusCode: 503 });
  });
});
