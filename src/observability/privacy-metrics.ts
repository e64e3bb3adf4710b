import { SecretUnsealError } from "../sealing/secret-sealer.js";
import { processCounter } from "./metrics.js";

/** Created once per process: every service in it shares the collector. */
const unopened = processCounter({
  name: "mis_personal_data_unseal_failures_total",
  help: "Reads of a newsletter subscriber whose sealed address or name did not open, by reason: unknown_key (PERSONAL_DATA_KEYS no longer names its key), not_authentic (altered, or another subscriber's), malformed; such a subscriber is sent nothing",
  labelNames: ["reason"],
});

/** Counts a subscriber that did not open, so an alert can fire before a welcome is missed. */
export function countPersonalDataUnsealFailure(err: unknown): void {
  unopened.labels(err instanceof SecretUnsealError ? err.reason : "other").inc();
}
