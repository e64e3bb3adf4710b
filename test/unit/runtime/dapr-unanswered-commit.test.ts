import { afterEach, describe, expect, it } from "vitest";
import { ManualClock } from "../../../src/runtime/clocks/clock.js";
import { DaprActorHost } from "../../../src/runtime/dapr/dapr-host.js";
import { SidecarClient } from "../../../src/runtime/dapr/sidecar-client.js";
import { captureLogger } from "../../support/capture-logger.js";
import { fakeSidecar, type FakeSidecar } from "./fixtures/fake-sidecar.js";
import { CounterActor, PublisherActor } from "./fixtures/sample-actors.js";

/**
 * A real daprd cannot be made to apply a state transaction and then answer after the caller's
 * time limit, which a busy two-core machine does; the fake sidecar lands the write and answers late.
 */
describe("a Dapr state write that lands but is answered after the time limit", () => {
  let side: FakeSidecar | undefined;
  afterEach(() => side?.close());

  const hostOn = (port: number) => {
    const log = captureLogger();
    const host = new DaprActorHost({ sidecar: new SidecarClient(port, "127.0.0.1", { stateMs: 100, reminderMs: 1_000, invokeMs: 1_000, otherMs: 1_000 }), clock: new ManualClock(0), logger: log.logger });
    return { host, log };
  };

  it("loses no update: the next turn reads the actor afresh, and a repeat of the landed call runs once", async () => {
    const s = (side = await fakeSidecar());
    const { host, log } = hostOn(s.port);
    host.register(CounterActor);
    expect((await host.handleCall("Counter", "c", "add", "1", "call-0001")).status).toBe(200);
    s.lateWrites = 1;
    // The caller sees a failure; the write landed all the same (n = 2 in the store).
    expect((await host.handleCall("Counter", "c", "add", "1", "call-0002")).status).toBe(500);
    expect(log.lines.some((l) => l.msg === "state write unanswered: activation forgotten, the next turn reads the actor afresh")).toBe(true);
    // Its caller sends it again with the same id: answered from the landed call memory, not run again.
    expect(JSON.parse((await host.handleCall("Counter", "c", "add", "1", "call-0002")).body)).toBe(2);
    expect(JSON.parse((await host.handleCall("Counter", "c", "add", "1", "call-0003")).body)).toBe(3);
    expect(JSON.parse((await host.handleCall("Counter", "c", "value", "")).body)).toBe(3);
    await host.shutdown();
  });

  it("keeps the landed turn's event: the next turn's outbox adds to it rather than writing over it", async () => {
    const s = (side = await fakeSidecar());
    const { host } = hostOn(s.port);
    // No bus: events stay pending in the actor's stored outbox, where they can be counted.
    host.register(PublisherActor, (ctx) => new PublisherActor(ctx, Promise.resolve()));
    await host.handleCall("Publisher", "p", "emit", JSON.stringify({ k: 1 }));
    s.lateWrites = 1;
    await host.handleCall("Publisher", "p", "emit", JSON.stringify({ k: 2 }));
    await host.handleCall("Publisher", "p", "emit", JSON.stringify({ k: 3 }));
    const stored = JSON.parse(s.state.get("Publisher/p/__outbox") ?? "null") as { $json: string };
    const pending = JSON.parse(stored.$json) as { envelope: string }[];
    expect(pending.map((r) => (JSON.parse(r.envelope) as { data: unknown }).data)).toEqual([{ k: 1 }, { k: 2 }, { k: 3 }]);
    await host.shutdown();
  });
});
