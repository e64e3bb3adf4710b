import { describe, expect, it } from "vitest";
import { ActorHostStoppedError } from "../../../src/runtime/actor-host.js";
import { ManualClock } from "../../../src/runtime/clocks/clock.js";
import { DaprActorHost } from "../../../src/runtime/dapr/dapr-host.js";
import { SidecarClient } from "../../../src/runtime/dapr/sidecar-client.js";
import { captureLogger } from "../../support/capture-logger.js";
import { freePort } from "../../support/free-port.js";
import { CounterActor } from "./fixtures/sample-actors.js";

describe("a Dapr host whose sidecar never comes up", () => {
  it("ends an actor call waiting for the sidecar as soon as the host stops, not after its minute of retries", async () => {
    // Nothing listens there: every connection is refused, as before daprd has started.
    const host = new DaprActorHost({ sidecar: new SidecarClient(await freePort()), clock: new ManualClock(0), logger: captureLogger().logger });
    host.register(CounterActor);
    const call = host.proxy(CounterActor, "c1").add(1);
    let settled = false;
    const outcome = call.then(
      () => "answered",
      (err: unknown) => err,
    );
    void outcome.then(() => (settled = true));
    // Still retrying a moment later (a refused connection is retried for 60 s): the call has not
    // given up on its own, so what ends it below is the stop.
    await new Promise((r) => setTimeout(r, 600));
    expect(settled).toBe(false);
    await host.shutdown(100);
    // Within the test's 5 s limit, far inside the minute the retries would otherwise take.
    expect(await outcome).toBeInstanceOf(ActorHostStoppedError);
  });
});
