import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { wallClock } from "../../../src/runtime/clocks/clock.js";
import type { DaprActorHost } from "../../../src/runtime/dapr/dapr-host.js";
import { DaprError } from "../../../src/runtime/dapr/sidecar-client.js";
import { CALL_ANSWER_MAX_CHARS } from "../../../src/runtime/dapr/call-memory.js";
import { captureLogger } from "../../support/capture-logger.js";
import { runInRequest } from "../../../src/logging/log-context.js";
import { CounterActor, GatedCounterActor } from "../../unit/runtime/fixtures/sample-actors.js";
import { replicaAt, startControlPlane, startReplica, type ControlPlane, type Replica } from "./support/dapr-cluster.js";

/**
 * daprd may deliver one actor call twice. When placement rebalances it waits
 * drainOngoingCallTimeout for the calls running on a moving host, then cancels them and sends
 * them again (its built-in actor retries); and our proxy sends again a call daprd answered
 * "actor lock is closed" while the app still ran its turn. The app's turn of a cancelled
 * delivery goes on and may commit: a counter's 100 adds once read 101 in CI. Every call carries
 * an id, and each delivery here is sent through a real daprd with the id as our proxy sends it:
 * placement, scheduler, Redis and a daprd per replica.
 */
describe("an actor call delivered twice", () => {
  let plane: ControlPlane;
  const replicas: Replica[] = [];
  const log = captureLogger();
  const entered: string[] = [];
  let openGate: () => void = () => undefined;
  const open = new Promise<void>((resolve) => {
    openGate = resolve;
  });
  const setup = (host: DaprActorHost): void => {
    host.register(CounterActor);
    host.register(GatedCounterActor, (ctx) => new GatedCounterActor(ctx, { entered: (id) => entered.push(id), open }));
  };

  beforeAll(async () => {
    plane = await startControlPlane();
    replicas.push(await startReplica(plane, "a", setup, { clock: wallClock, logger: log.logger }));
    replicas.push(await startReplica(plane, "b", setup, { clock: wallClock, logger: log.logger }));
  }, 180_000);

  afterAll(async () => {
    openGate();
    for (const r of replicas) await r.stop();
    await plane?.stop();
  }, 60_000);

  const replica = (i: number): Replica => replicaAt(replicas, i);

  const value = (id: string): Promise<number> => replica(0).host.proxy(CounterActor, id).value();

  it("runs once, through either replica's daprd: the repeat gets the first answer", async () => {
    const callId = randomBytes(12).toString("base64url");
    expect(await replica(0).sidecar.invoke("Counter", "twice-1", "add", "1", callId)).toBe("1");
    expect(await replica(1).sidecar.invoke("Counter", "twice-1", "add", "1", callId)).toBe("1");
    expect(await value("twice-1")).toBe(1);
    // A new id is a new call.
    expect(await replica(1).sidecar.invoke("Counter", "twice-1", "add", "1", randomBytes(12).toString("base64url"))).toBe("2");
    expect(log.lines.some((l) => l.actorId === "twice-1" && /repeated delivery/.test(String(l.msg)))).toBe(true);
  });

  it("logs a turn called for a request with that request's id, on whichever replica runs it", async () => {
    // Each replica's callback server gets daprd's request, not the caller's async context: the
    // id arrives as a header or not at all.
    for (const [i, id] of [[0, "traced-a"], [1, "traced-b"]] as const) {
      const requestId = `trace-dapr-${id}`;
      await expect(runInRequest(requestId, () => replica(i).host.proxy(CounterActor, id).addThenFail(1))).rejects.toThrow();
      const failed = log.lines.filter((l) => l.actorId === id && String(l.msg).startsWith("actor turn failed"));
      expect(failed.length, id).toBeGreaterThan(0);
      expect(failed.map((l) => l.req_id)).toEqual(failed.map(() => requestId));
    }
  });

  it("runs once after the actor moved: the new activation reads the calls it answered from the store", async () => {
    const callId = randomBytes(12).toString("base64url");
    expect(await replica(0).sidecar.invoke("Counter", "twice-2", "add", "5", callId)).toBe("5");
    // Gone from memory wherever it was hosted, as when placement moves it.
    for (const r of replicas) await r.host.handleDeactivate("Counter", "twice-2");
    expect(replicas.flatMap((r) => r.host.activeIds("Counter"))).not.toContain("twice-2");
    expect(await replica(1).sidecar.invoke("Counter", "twice-2", "add", "5", callId)).toBe("5");
    expect(await value("twice-2")).toBe(5);
  });

  it("a repeat sent while the first delivery's turn still runs waits for it and gets its answer", async () => {
    const callId = randomBytes(12).toString("base64url");
    const first = replica(0).sidecar.invoke("GatedCounter", "twice-3", "add", "1", callId);
    await expect.poll(() => entered.includes("twice-3"), { timeout: 15_000, interval: 50 }).toBe(true);
    const repeat = replica(1).sidecar.invoke("GatedCounter", "twice-3", "add", "1", callId);
    openGate();
    expect(await Promise.all([first, repeat])).toEqual(["1", "1"]);
    expect(await replica(1).host.proxy(GatedCounterActor, "twice-3").value()).toBe(1);
    expect(entered.filter((id) => id === "twice-3")).toHaveLength(1);
  });

  it("refuses, without running it again, a repeat of a call whose answer was too long to keep", async () => {
    const callId = randomBytes(12).toString("base64url");
    const note = "x".repeat(CALL_ANSWER_MAX_CHARS);
    const arg = JSON.stringify({ n: 3, note });
    expect(JSON.parse(await replica(0).sidecar.invoke("Counter", "twice-4", "addNoted", arg, callId))).toEqual({ total: 3, note });
    const repeat = replica(1).sidecar.invoke("Counter", "twice-4", "addNoted", arg, callId);
    await expect(repeat).rejects.toThrow(DaprError);
    await expect(repeat).rejects.toThrow(/ran once already/);
    expect(await value("twice-4")).toBe(3);
  });

  it("a read that changed nothing is not remembered: its repeat reads again", async () => {
    const callId = randomBytes(12).toString("base64url");
    expect(await replica(0).sidecar.invoke("Counter", "twice-5", "value", undefined, callId)).toBe("0");
    await replica(0).host.proxy(CounterActor, "twice-5").add(7);
    expect(await replica(1).sidecar.invoke("Counter", "twice-5", "value", undefined, callId)).toBe("7");
  });

  it("answers a malformed call id with 400, running nothing", async () => {
    await expect(replica(0).sidecar.invoke("Counter", "twice-6", "add", "1", "not an id!")).rejects.toThrow(/malformed call id/);
    expect(await value("twice-6")).toBe(0);
  });
});
