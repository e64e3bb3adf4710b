import { ConfigError, loadConfig, type Config } from "./config/env.js";
import { buildService, type Service } from "./composition/build-service.js";
import { exitOnProcessFault } from "./logging/process-faults.js";
import { createLogger } from "./logging/logger.js";
import { errorSummary } from "./logging/error-summary.js";

function configOrExit(): Config {
  try {
    return loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(78);
    }
    throw err;
  }
}

/**
 * Process entry: signals, config, service. The signal handlers come first: a SIGTERM during
 * start-up (an orchestrator scaling down a replica that is still starting) drains what has
 * started and exits 0, rather than dying with Node's default 143.
 */
async function main(): Promise<void> {
  let service: Service | null = null;
  let signalled: string | null = null;
  const shutdown = (signal: string): void => {
    if (signalled !== null) return;
    signalled = signal;
    service?.logger.info({ signal }, "shutting down");
    // Ten seconds is the promise of DECISIONS 1; past it the process goes anyway.
    const force = setTimeout(() => {
      process.stderr.write("shutdown took longer than 10 s; exiting\n");
      process.exit(1);
    }, 10_000);
    force.unref();
    // Before the service exists there is nothing to drain; once it does, stop() is idempotent
    // and cancels a start-up still under way.
    if (service === null) process.exit(0);
    service.stop().then(
      () => process.exit(0),
      (err: unknown) => {
        service?.logger.error({ err }, "shutdown failed");
        process.exit(1);
      },
    );
  };
  process.once("SIGTERM", () => shutdown("SIGTERM"));
  process.once("SIGINT", () => shutdown("SIGINT"));

  const config = configOrExit();
  try {
    service = await buildService(config);
  } catch (err) {
    // One line an operator can act on, not a stack trace: a failure to open the store or the
    // market data quotes what it was given (a connection string with its password), so the
    // line keeps its kind and code, and a missing file's path.
    const path = (err as { path?: unknown } | null)?.path;
    createLogger(config.LOG_LEVEL).fatal({ err: errorSummary(err), ...(typeof path === "string" ? { path } : {}), store: config.STORE_URL.split(":")[0] }, "cannot start");
    process.exit(1);
  }
  exitOnProcessFault(service.logger, (code) => process.exit(code));
  if (signalled !== null) {
    await service.stop();
    process.exit(0);
  }
  try {
    const port = await service.listen();
    service.logger.info({ port, store: service.store.kind, feed: config.MARKET_FEED, actors: config.ACTOR_RUNTIME }, "service listening");
  } catch (err) {
    // A start-up cut short by a signal fails its last step; the handler's stop() exits 0.
    if (signalled !== null) return;
    // The port is bound before anything shared starts (issue 19): close what was opened and go.
    // The address from the error itself: the metrics listener (METRICS_PORT) can be the one refused.
    const { address, port } = (err ?? {}) as { address?: unknown; port?: unknown };
    service.logger.fatal({ err: err instanceof Error ? err.message : String(err), ...(typeof address === "string" ? { address } : {}), ...(typeof port === "number" ? { port } : {}) }, "cannot listen");
    await service.stop();
    process.exit(1);
  }
}

await main();
