import { ConfigError, loadConfig, type Config } from "./config/env.js";
import { buildService } from "./composition/build-service.js";

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

/** Process entry: config, service, signals. An invalid config stops here with its reasons. */
async function main(): Promise<void> {
  const config = configOrExit();
  const service = await buildService(config);
  const port = await service.listen();
  service.logger.info({ port, store: service.store.kind, feed: config.MARKET_FEED, actors: config.ACTOR_RUNTIME }, "service listening");

  const shutdown = (signal: string) => {
    service.logger.info({ signal }, "shutting down");
    // Ten seconds is the promise of DECISIONS 1; past it the process goes anyway.
    const force = setTimeout(() => {
      service.logger.error("shutdown took longer than 10 s; exiting");
      process.exit(1);
    }, 10_000);
    force.unref();
    service.stop().then(
      () => process.exit(0),
      (err: unknown) => {
        service.logger.error({ err }, "shutdown failed");
        process.exit(1);
      },
    );
  };
  process.once("SIGTERM", () => shutdown("SIGTERM"));
  process.once("SIGINT", () => shutdown("SIGINT"));
}

await main();
