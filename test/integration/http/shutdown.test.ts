import { describe, expect, it } from "vitest";
import { startService } from "../../support/service.js";
import { probeRoutes, type ProbeState } from "../../support/probe-routes.js";
import { waitFor } from "../../support/wait-for.js";

describe("graceful shutdown", () => {
  it("finishes a request in flight before it closes the store, and accepts no new ones", async () => {
    let release: () => void = () => undefined;
    let started: () => void = () => undefined;
    const inFlight = new Promise<void>((r) => (started = r));
    const state: ProbeState = { computed: 0, gate: new Promise<void>((r) => (release = r)), onSlowStarted: () => started() };
    const svc = await startService({}, { routeSets: [probeRoutes(state)] });
    const slow = fetch(`${svc.url}/v1/probe/slow`);
    await inFlight;

    let stopped = false;
    const stopping = svc.stop().then(() => (stopped = true));
    // Stopping has begun once the listener refuses new connections; the request in flight still
    // holds the stop back.
    await waitFor(
      () => fetch(`${svc.url}/v1/health`).then(() => false, () => true),
      5_000,
      "the listener to refuse new connections",
    );
    expect(stopped).toBe(false);

    release();
    const res = await slow;
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ done: true });
    await stopping;
    expect(stopped).toBe(true);
    await expect(svc.service.store.ping()).rejects.toThrow();
  });
});
