import { AbstractActor, ActorId, ActorProxyBuilder, DaprClient, DaprServer, LogLevel } from "@dapr/dapr";
import { z } from "zod";
import { Actor } from "../src/runtime/actor.js";
import { wallClock } from "../src/runtime/clocks/clock.js";
import { createLogger } from "../src/logging/logger.js";
import { startControlPlane, startDaprd, startReplica } from "../test/integration/runtime/support/dapr-cluster.js";
import { waitUntil } from "../test/integration/runtime/support/processes.js";
import { freePort } from "../test/support/free-port.js";
import { result, type BenchResult } from "./result.js";
import { median } from "./stats.js";

/** Our adapter: read n, write n + 1, one transactional state request at the end of the turn. */
class OursCounter extends Actor {
  static readonly actorType = "BenchOursCounter";

  async add(): Promise<number> {
    const n = ((await this.ctx.state.get("n", z.number())) ?? 0) + 1;
    this.ctx.state.set("n", n);
    return n;
  }
}

/** The same turn as a plain @dapr/dapr actor (the SDK saves its state after the method). */
class PlainCounter extends AbstractActor {
  async add(): Promise<number> {
    const state = this.getStateManager<number>();
    const [, current] = await state.tryGetState("n");
    const n = (current ?? 0) + 1;
    await state.setState("n", n);
    return n;
  }
}

const ROUND_MS = 3000;

/** Sequential calls for ROUND_MS: calls per second of one state-saving turn on one actor. */
async function round(call: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  let calls = 0;
  while (performance.now() - started < ROUND_MS) {
    await call();
    calls++;
  }
  return calls / ((performance.now() - started) / 1000);
}

/**
 * Issue 4: on the real Dapr of the tests (daprd, placement, scheduler 1.16.2, Redis state), calls
 * per second of one state-saving turn through our adapter beside a plain `@dapr/dapr`
 * AbstractActor doing the same turn, each app behind its own daprd, in alternating rounds so
 * both see the same machine load (target: ours >= 0.9 of the SDK's).
 */
export async function run(): Promise<BenchResult[]> {
  const plane = await startControlPlane();
  const logger = createLogger("silent");
  const ours = await startReplica(plane, "ours", (host) => host.register(OursCounter), { clock: wallClock, logger });
  const [appPort, httpPort, grpcPort, internalPort, metricsPort] = await Promise.all([freePort(), freePort(), freePort(), freePort(), freePort()]);
  const server = new DaprServer({
    serverHost: "127.0.0.1",
    serverPort: String(appPort),
    clientOptions: { daprHost: "127.0.0.1", daprPort: String(httpPort) },
    logger: { level: LogLevel.Error },
  });
  await server.actor.init();
  await server.actor.registerActor(PlainCounter);
  // The SDK's start waits for its sidecar, and daprd waits for the app: start both together.
  const serverStarted = server.start();
  const daprd = startDaprd(plane, "daprd-plain", { appId: "bench-plain-sdk", appPort, httpPort, grpcPort, internalPort, metricsPort });  try {
    await serverStarted;
    const client = new DaprClient({ daprHost: "127.0.0.1", daprPort: String(httpPort), logger: { level: LogLevel.Error } });
    const plain = new ActorProxyBuilder<PlainCounter>(PlainCounter, client).build(new ActorId("c1"));
    await waitUntil("the plain SDK actor", async () => (await plain.add()) > 0, 60_000, daprd);
    const mine = ours.host.proxy(OursCounter, "c1");
    await mine.add();
    const oursRates: number[] = [];
    const plainRates: number[] = [];
    for (let i = 0; i < 3; i++) {
      oursRates.push(await round(() => mine.add()));
      plainRates.push(await round(() => plain.add()));
    }
    const oursRate = median(oursRates);
    const plainRate = median(plainRates);
    return [
      result(
        "actors: Dapr host, one state-saving turn on one actor, calls/s (baseline: plain @dapr/dapr AbstractActor, same turn, same Dapr)",
        oursRate,
        "calls/s",
        "ratio >= 0.90 (issue 4)",
        oursRate >= 0.9 * plainRate,
        plainRate,
      ),
    ];
  } finally {
    await server.stop().catch(() => undefined);
    await daprd.stop();
    await ours.stop();
    await plane.stop();
  }
}
