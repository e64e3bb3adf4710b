import { randomBytes } from "node:crypto";
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import type { Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import express from "express";
import { z } from "zod";
import type { Clock } from "../../../../src/runtime/clocks/clock.js";
import type { Logger } from "../../../../src/logging/logger.js";
import { DaprEventBus } from "../../../../src/events/dapr-bus.js";
import { daprEventRouter } from "../../../../src/events/dapr-bus-routes.js";
import { DaprActorHost } from "../../../../src/runtime/dapr/dapr-host.js";
import { daprActorRouter } from "../../../../src/runtime/dapr/actor-routes.js";
import { SidecarClient } from "../../../../src/runtime/dapr/sidecar-client.js";
import { startChild, waitUntil, type Child } from "./processes.js";
import { freePort } from "../../../support/free-port.js";

const APP_ID = "mis-test";

/** Builds (first time only) and locates daprd, placement and scheduler (DECISIONS 6). */
function daprBin(): string {
  return execFileSync("bash", ["scripts/ensure-dapr.sh"], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] }).trim();
}

function redisBin(): string {
  return execFileSync("bash", ["scripts/ensure-redis.sh"], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] }).trim();
}

export interface ControlPlane {
  readonly bin: string;
  readonly dir: string;
  readonly placementPort: number;
  readonly schedulerPort: number;
  readonly redisPort: number;
  /** The daprds of the replicas started on this plane and not stopped (see startReplica). */
  readonly members: Set<PlacementMember>;
  stop(): Promise<void>;
}

interface PlacementMember {
  readonly name: string;
  readonly metricsPort: number;
}

/**
 * How many placement table updates a daprd has applied (its own counter), or null when it does
 * not answer (stopping or killed).
 */
async function tableUpdates(member: PlacementMember): Promise<number | null> {
  try {
    const text = await (await fetch(`http://127.0.0.1:${member.metricsPort}/metrics`)).text();
    const m = /^dapr_runtime_actor_table_operation_recv_total\{[^}]*operation="update"[^}]*\} (\d+)/m.exec(text);
    return m ? Number(m[1]) : 0;
  } catch {
    return null;
  }
}

/** Redis, placement and scheduler on free loopback ports, with their data in a temp dir. */
export async function startControlPlane(): Promise<ControlPlane> {
  const bin = daprBin();
  const dir = mkdtempSync(join(tmpdir(), "dapr-"));
  const [redisPort, placementPort, placementRaft, placementHealth, placementMetrics] = await Promise.all([freePort(), freePort(), freePort(), freePort(), freePort()]);
  const [schedulerPort, schedulerHealth, schedulerMetrics, etcdClient, etcdPeer] = await Promise.all([freePort(), freePort(), freePort(), freePort(), freePort()]);
  const children: Child[] = [];
  const redis = startChild("redis", redisBin(), ["--port", String(redisPort), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"]);
  children.push(redis);
  const placement = startChild("placement", join(bin, "placement"), [
    "--port", String(placementPort),
    "--healthz-port", String(placementHealth),
    "--metrics-port", String(placementMetrics),
    "--id", "dapr-placement-0",
    "--initial-cluster", `dapr-placement-0=127.0.0.1:${placementRaft}`,
    "--log-level", "warn",
  ]);
  children.push(placement);
  const scheduler = startChild("scheduler", join(bin, "scheduler"), [
    "--port", String(schedulerPort),
    "--healthz-port", String(schedulerHealth),
    "--metrics-port", String(schedulerMetrics),
    "--etcd-data-dir", join(dir, "etcd"),
    "--etcd-client-port", String(etcdClient),
    "--etcd-initial-cluster", `dapr-scheduler-server-0=http://127.0.0.1:${etcdPeer}`,
    "--id", "dapr-scheduler-server-0",
    "--listen-address", "127.0.0.1",
    "--override-broadcast-host-port", `127.0.0.1:${schedulerPort}`,
    "--log-level", "warn",
  ]);
  children.push(scheduler);
  const healthy = (port: number) => async () => (await fetch(`http://127.0.0.1:${port}/healthz`)).ok;
  await waitUntil("placement", healthy(placementHealth), 30_000, placement);
  await waitUntil("scheduler", healthy(schedulerHealth), 60_000, scheduler);
  const components = join(dir, "components");
  writeFileSync(join(dir, ".keep"), "");
  execFileSync("mkdir", ["-p", components]);
  writeFileSync(
    join(components, "actorstate.yaml"),
    `apiVersion: dapr.io/v1alpha1
kind: Component
metadata:
  name: actorstate
spec:
  type: state.redis
  version: v1
  metadata:
    - name: redisHost
      value: "127.0.0.1:${redisPort}"
    - name: redisPassword
      value: ""
    - name: actorStateStore
      value: "true"
`,
  );
  writeFileSync(
    join(components, "pubsub.yaml"),
    `apiVersion: dapr.io/v1alpha1
kind: Component
metadata:
  name: pubsub
spec:
  type: pubsub.redis
  version: v1
  metadata:
    - name: redisHost
      value: "127.0.0.1:${redisPort}"
    - name: redisPassword
      value: ""
`,
  );
  return {
    bin,
    dir,
    placementPort,
    schedulerPort,
    redisPort,
    members: new Set(),
    stop: async () => {
      for (const child of children.reverse()) await child.stop();
    },
  };
}

export interface DaprdPorts {
  readonly appId: string;
  readonly appPort: number;
  readonly httpPort: number;
  readonly grpcPort: number;
  readonly internalPort: number;
  readonly metricsPort: number;
}

/**
 * The app API token the service replicas of these suites run with (ACTOR_RUNTIME=dapr requires
 * one): their daprd gets it too and sends it on every call to the app.
 */
export const TEST_APP_API_TOKEN = randomBytes(32).toString("hex");

/**
 * One daprd sidecar on loopback for an app, joined to the control plane (every port distinct: the
 * defaults collide). `appApiToken`: what daprd sends the app as dapr-api-token (service replicas).
 */
export function startDaprd(plane: ControlPlane, name: string, ports: DaprdPorts, extraArgs: readonly string[] = [], appApiToken?: string): Child {
  const env = appApiToken === undefined ? process.env : { ...process.env, APP_API_TOKEN: appApiToken };
  return startChild(name, join(plane.bin, "daprd"), [
    "--app-id", ports.appId,
    "--app-port", String(ports.appPort),
    "--app-protocol", "http",
    "--app-channel-address", "127.0.0.1",
    "--dapr-http-port", String(ports.httpPort),
    "--dapr-grpc-port", String(ports.grpcPort),
    "--dapr-internal-grpc-port", String(ports.internalPort),
    "--dapr-listen-addresses", "127.0.0.1",
    "--placement-host-address", `127.0.0.1:${plane.placementPort}`,
    "--scheduler-host-address", `127.0.0.1:${plane.schedulerPort}`,
    "--resources-path", join(plane.dir, "components"),
    "--metrics-port", String(ports.metricsPort),
    "--log-level", "warn",
    ...extraArgs,
  ], env);
}

export interface Replica {
  readonly name: string;
  readonly host: DaprActorHost;
  readonly sidecar: SidecarClient;
  readonly bus: DaprEventBus;
  readonly daprd: Child;
  /** Stops daprd and the app (a graceful stop; `kill` for a crash). */
  stop(): Promise<void>;
  kill(): Promise<void>;
}

const metadataSchema = z
  .object({
    actorRuntime: z.object({ runtimeStatus: z.string(), hostReady: z.boolean().optional(), placement: z.string().optional() }).loose().optional(),
  })
  .loose();

/** One app replica: an Express app serving the actor API for `host`, and its own daprd. */
export async function startReplica(
  plane: ControlPlane,
  name: string,
  setup: (host: DaprActorHost) => void,
  deps: { clock: Clock; logger: Logger; subscribe?: (bus: DaprEventBus) => void },
): Promise<Replica> {
  const [httpPort, grpcPort, internalPort, metricsPort] = await Promise.all([freePort(), freePort(), freePort(), freePort()]);
  const sidecar = new SidecarClient(httpPort);
  const logger = deps.logger.child({ replica: name });
  const bus = new DaprEventBus(sidecar, "pubsub", logger);
  deps.subscribe?.(bus);
  const host = new DaprActorHost({ sidecar, clock: deps.clock, logger, bus, idleTimeoutMs: 60 * 60 * 1000 });
  setup(host);
  const app = express();
  app.use(daprActorRouter(host));
  app.use(daprEventRouter(bus));
  const server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, "127.0.0.1", () => resolve(s));
  });
  const address = server.address();
  const appPort = typeof address === "object" && address ? address.port : 0;
  // A new member is ready once it has its table, but placement hands the table naming it to the
  // replicas already running up to its dissemination delay later (2 s; ~0.4 s measured here):
  // until then their daprds still route every actor to themselves, and a call in that window is
  // cut off ("actor lock is closed") when the actor moves. Each of them must apply an update
  // made after this daprd started before the new replica counts as joined.
  const peers = await Promise.all([...plane.members].map(async (member) => ({ member, before: await tableUpdates(member) })));
  const daprd = startDaprd(plane, `daprd-${name}`, { appId: APP_ID, appPort, httpPort, grpcPort, internalPort, metricsPort });
  await waitUntil(
    `daprd ${name}`,
    async () => {
      const meta = metadataSchema.parse(await sidecar.metadata());
      return meta.actorRuntime?.runtimeStatus === "RUNNING" && meta.actorRuntime.hostReady === true && (meta.actorRuntime.placement ?? "").includes("connected");
    },
    60_000,
    daprd,
  );
  await waitUntil(
    `the placement table with daprd ${name} on ${peers.map((p) => p.member.name).join(", ") || "no other replica"}`,
    async () => {
      for (const { member, before } of peers) {
        if (before === null) continue;
        const now = await tableUpdates(member);
        if (now !== null && now <= before) return false;
      }
      return true;
    },
    15_000,
    daprd,
  );
  const member: PlacementMember = { name, metricsPort };
  plane.members.add(member);
  const closeApp = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return {
    name,
    host,
    sidecar,
    bus,
    daprd,
    stop: async () => {
      plane.members.delete(member);
      await host.shutdown();
      await daprd.stop();
      server.closeAllConnections();
      await closeApp();
    },
    kill: async () => {
      plane.members.delete(member);
      await daprd.stop("SIGKILL");
      server.closeAllConnections();
      await closeApp();
    },
  };
}

/** The i-th replica a suite started, or a clear failure when it did not start. */
export function replicaAt(replicas: readonly Replica[], i: number): Replica {
  const r = replicas[i];
  if (!r) throw new Error(`no replica ${i}`);
  return r;
}
