import type { Logger } from "./logger.js";
import { errorSummary } from "./error-summary.js";

/** How many stack frames a fault's line keeps: enough to find the call site, bounded in size. */
const MAX_FRAMES = 20;

/**
 * Where a fault was raised: the stack's frames only. A stack's first line repeats the error's
 * message, and a message may quote what the failing call was given (a URL with a credential, an
 * address), which is why failures of outside services are logged as `errorSummary` elsewhere.
 */
function framesOf(err: unknown): string[] {
  if (!(err instanceof Error) || typeof err.stack !== "string") return [];
  return err.stack
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line.startsWith("at "))
    .slice(0, MAX_FRAMES);
}

export type ProcessFault = "unhandled_rejection" | "uncaught_exception";

/**
 * An error no code path caught ends the process, as Node's default does, but as one structured
 * fatal line in the service's log (kind, code, frames) instead of a bare stack on stderr that
 * quotes the error's message. Exiting rather than carrying on: after such a fault nothing says
 * which turn or request was left midway, and every actor turn commits its state whole, so a
 * restart (the orchestrator's job) resumes from the last committed turn.
 */
export function exitOnProcessFault(logger: Logger, exit: (code: number) => void, target: NodeJS.EventEmitter = process): void {
  const onFault = (fault: ProcessFault) => (err: unknown): void => {
    logger.fatal({ fault, error: errorSummary(err), frames: framesOf(err) }, "process fault; exiting");
    exit(1);
  };
  target.on("unhandledRejection", onFault("unhandled_rejection"));
  target.on("uncaughtException", onFault("uncaught_exception"));
}
