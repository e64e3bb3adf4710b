import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { startService, type RunningService } from "../../support/service.js";
import { waitFor } from "../../support/wait-for.js";
import { ChatServer } from "./chat-server.js";

const SECOND = 1_000;
/** The service's defaults (README): a session may wait one budget for the model, then use one. */
const SESSION_BUDGET_MS = 90 * SECOND;

const readyBody = z.object({ checks: z.record(z.string(), z.string()) }).or(z.object({ detail: z.object({ checks: z.record(z.string(), z.string()) }) }));

async function actorsCheck(svc: RunningService): Promise<string | undefined> {
  const res = await fetch(`${svc.url}/v1/health/ready`);
  const body = readyBody.parse(await res.json());
  return "checks" in body ? body.checks.actors : body.detail.checks.actors;
}

let server: ChatServer | undefined;
let svc: RunningService | undefined;

afterEach(async () => {
  vi.useRealTimers();
  // The provider first: its hung replies end at once, so the councils' turns end and the service stops promptly.
  await server?.stop();
  await svc?.stop();
  server = undefined;
  svc = undefined;
});

describe("readiness while a council waits for a slow language model", () => {
  it("a council turn inside its documented bound (slot wait + session budget) is not reported as a stall; a longer one is", async () => {
    server = new ChatServer();
    // A provider that accepts the question and never finishes its reply: the worst a model server does.
    server.fallback = { kind: "hang", ms: 600 * SECOND };
    const baseUrl = await server.start();
    // REPLAY_SPEED 300: the first council slot after start (the one at start runs without the
    // model, as warm-up does) comes 6 s later instead of 30.
    svc = await startService({ LLM_BASE_URL: baseUrl, LLM_MODEL: "test-model", LLM_API_KEY: "sk-test", LLM_SESSION_BUDGET_MS: String(SESSION_BUDGET_MS), REPLAY_SPEED: "300" });
    const provider = server;
    // The three councils deliberate at one slot; the first asks the model, the other two wait for its slot.
    await waitFor(async () => provider.received.length > 0, 60 * SECOND, "a council asking the model");
    expect(await actorsCheck(svc)).toBe("ok");

    // Move the wall clock (Date only; timers stay real) instead of waiting minutes. 150 s into
    // the turn is within what the defaults allow a council: 90 s for a slot behind another
    // council, then 90 s with the model. The measured SmolLM2 sessions took 20-120 s each.
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 150 * SECOND });
    expect(await actorsCheck(svc)).toBe("ok");

    // Past that bound (and its margin) the turn is stuck, and readiness must say so.
    vi.setSystemTime(Date.now() + 120 * SECOND);
    expect(await actorsCheck(svc)).toBe("failed");
  });
});
