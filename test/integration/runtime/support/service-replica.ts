import { startDaprd, TEST_APP_API_TOKEN, type ControlPlane } from "./dapr-cluster.js";
import { startChild, waitUntil, type Child } from "./processes.js";
import { freePort } from "../../../support/free-port.js";

/**
 * daprd's app health check as docker-compose.yml and scripts/start-dapr.sh run it: a probe of the
 * app's /healthz every 5 s, unhealthy after 3 failures of 4 s each. It moves the actors off a
 * replica whose turns are stuck; it must not flap on a busy 2-core machine (a 1.5 s probe did,
 * and withdrew the actor types in the middle of a start-up). A stopping app does not wait for
 * it: it asks its daprd to shut down (POST /v1.0/shutdown), which moves the actors at once.
 */
export const APP_HEALTH_ARGS = [
  "--enable-app-health-check",
  "--app-health-check-path", "/healthz",
  "--app-health-probe-interval", "5",
  "--app-health-probe-timeout", "4000",
  "--app-health-threshold", "3",
  "--dapr-graceful-shutdown-seconds", "10",
] as const;

export interface ServiceReplica {
  readonly name: string;
  readonly url: string;
  readonly service: Child;
  readonly daprd: Child;
  /** Exit codes, once each process exited. */
  readonly serviceExit: Promise<number | null>;
  readonly daprdExit: Promise<number | null>;
  /** Both processes' last output lines, for failure messages. */
  output(): string;
  /** Starts a new daprd for this app on the same ports (after `daprd` died); returns it. */
  startSidecarAgain(): Child;
}

export interface ServiceReplicaOptions {
  readonly appId: string;
  readonly storeUrl: string;
  /** Service environment beyond the Dapr wiring (REPLAY_SPEED, LOG_LEVEL, ...). */
  readonly env?: Readonly<Record<string, string>>;
  /** Milliseconds between starting the app and starting its daprd (0: together). */
  readonly daprdDelayMs?: number;
}

/**
 * One replica of the real service (src/main.ts, ACTOR_RUNTIME=dapr) with its own daprd. A replica
 * that does not come up is stopped (app and daprd) before the error is thrown, so it cannot load
 * the machine under the next scenario. A free port taken by another process between the probe
 * and the listen (EADDRINUSE: two replicas and their daprds pick ports at once) is retried once
 * on new ports: that is the harness's race, not the service's fault.
 */
export async function startServiceReplica(plane: ControlPlane, name: string, options: ServiceReplicaOptions): Promise<ServiceReplica> {
  try {
    return await startOnce(plane, name, options);
  } catch (err) {
    if (!String(err).includes("EADDRINUSE")) throw err;
    return startOnce(plane, name, options);
  }
}

async function startOnce(plane: ControlPlane, name: string, options: ServiceReplicaOptions): Promise<ServiceReplica> {
  const [appPort, httpPort, grpcPort, internalPort, metricsPort] = await Promise.all([freePort(), freePort(), freePort(), freePort(), freePort()]);
  const service = startChild(`service-${name}`, process.execPath, ["--import", "tsx", "src/main.ts"], {
    ...process.env,
    LOG_LEVEL: "warn",
    MARKET_FEED: "replay",
    ...options.env,
    PORT: String(appPort),
    HOST: "127.0.0.1",
    STORE_URL: options.storeUrl,
    ACTOR_RUNTIME: "dapr",
    DAPR_HTTP_PORT: String(httpPort),
    APP_API_TOKEN: TEST_APP_API_TOKEN,
  });
  const serviceExit = exitOf(service);
  if (options.daprdDelayMs) await new Promise((resolve) => setTimeout(resolve, options.daprdDelayMs));
  const sidecar = (label: string): Child =>
    startDaprd(plane, label, { appId: options.appId, appPort, httpPort, grpcPort, internalPort, metricsPort }, ["--config", "dapr/config.yaml", ...APP_HEALTH_ARGS], TEST_APP_API_TOKEN);
  const daprd = sidecar(`daprd-${name}`);
  const daprdExit = exitOf(daprd);
  const sidecars: Child[] = [daprd];
  const replica: ServiceReplica = {
    name,
    url: `http://127.0.0.1:${appPort}`,
    service,
    daprd,
    serviceExit,
    daprdExit,
    output: () => [`--- service ${name}:\n${service.output()}`, ...sidecars.map((d, i) => `--- daprd ${name}${i === 0 ? "" : ` (start ${i + 1})`}:\n${d.output()}`)].join("\n"),
    startSidecarAgain: () => {
      const next = sidecar(`daprd-${name}-${sidecars.length + 1}`);
      sidecars.push(next);
      return next;
    },
  };
  await waitUntil(`replica ${name} to answer /v1/health`, async () => (await fetch(`${replica.url}/v1/health`)).ok, 90_000, service).catch(async (err: unknown) => {
    const output = replica.output();
    await service.stop("SIGKILL");
    await daprd.stop("SIGKILL");
    throw new Error(`${String(err)}\n${output}`);
  });
  return replica;
}

function exitOf(child: Child): Promise<number | null> {
  if (child.process.exitCode !== null) return Promise.resolve(child.process.exitCode);
  return new Promise((resolve) => child.process.once("exit", (code) => resolve(code)));
}
