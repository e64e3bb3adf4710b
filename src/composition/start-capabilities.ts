import type { Logger } from "../logging/logger.js";
import type { Capability, CapabilityContext } from "./capability.js";
import { retryUntilStopped } from "./start-up-retry.js";

/**
 * Runs every capability's start, again after a failure (a schedule call that outlived its retries
 * while placement settled), until all succeeded or the service stops. Each start is idempotent.
 * Meanwhile /v1/health/ready answers 503 (startup) and the log says why, instead of a crash or
 * a silent stall.
 */
export async function startCapabilities(
  capabilities: readonly Capability[],
  deps: CapabilityContext,
  logger: Logger,
  stop: AbortSignal,
  attempted: (ok: boolean) => void = () => {},
): Promise<void> {
  await retryUntilStopped(
    async () => {
      await Promise.all(capabilities.map((capability) => capability.start(deps)));
      attempted(true);
    },
    stop,
    ({ err, attempt, retryInMs }) => {
      attempted(false);
      logger.warn({ err, attempt, retry_in_ms: retryInMs }, "capability start-up failed; trying again");
      return "try-again";
    },
  );
}
