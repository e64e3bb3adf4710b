import { afterEach, describe, expect, it } from "vitest";
import { ManualClock } from "../../../src/runtime/clocks/clock.js";
import { DaprActorHost } from "../../../src/runtime/dapr/dapr-host.js";
import { SidecarClient } from "../../../src/runtime/dapr/sidecar-client.js";
import { captureLogger } from "../../support/capture-logger.js";
import { fakeSidecar, type FakeSidecar } from "./fixtures/fake-sidecar.js";
import { ReminderActor } from "./fixtures/sample-actors.js";

describe("a Dapr reminder turn that fails", () => {
  let side: FakeSidecar | undefined;
  afterEach(() => side?.close());

  /** A sidecar whose state transactions are refused: every reminder turn fails to commit. */
  async function refusingSidecar(): Promise<FakeSidecar> {
    side = await fakeSidecar();
    side.refuseState = true;
    return side;
  }

  const remind = (periodMs: number | null): string => JSON.stringify({ data: JSON.stringify({ payload: "null", periodMs, clock: "wall" }) });

  it("registers a one-shot reminder again 30 s later: Dapr has consumed it and the turn that would re-arm it rolled back", async () => {
    const s = await refusingSidecar();
    const host = new DaprActorHost({ sidecar: new SidecarClient(s.port), clock: new ManualClock(0), logger: captureLogger().logger });
    host.register(ReminderActor);
    const answer = await host.handleReminder("Reminded", "r1", "deliver", remind(null));
    expect(answer.status).toBe(200);
    expect([...s.reminders.keys()]).toEqual(["Reminded/r1/deliver"]);
    expect(s.reminders.get("Reminded/r1/deliver")).toMatchObject({ dueTime: "30000ms" });
    expect(s.reminders.get("Reminded/r1/deliver")).not.toHaveProperty("period");
    await host.shutdown();
  });

  it("leaves a periodic reminder to Dapr's own schedule", async () => {
    const s = await refusingSidecar();
    const host = new DaprActorHost({ sidecar: new SidecarClient(s.port), clock: new ManualClock(0), logger: captureLogger().logger });
    host.register(ReminderActor);
    const answer = await host.handleReminder("Reminded", "r2", "tick", remind(60_000));
    expect(answer.status).toBe(200);
    expect(s.reminders.size).toBe(0);
    await host.shutdown();
  });
});
