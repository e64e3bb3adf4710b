import { SecretUnsealError } from "../sealing/secret-sealer.js";
import { processCounter } from "./metrics.js";

/** Created once per process: every service in it shares the collector. */
const unopened = processCounter({
  name: "mis_personal_data_unseal_failures_total",
  help: "Reads of sealed personal data that did not open (a newsletter subscriber's address or name, a key's owner fields), by reason: unknown_key (PERSONAL_DATA_KEYS no longer names its key), not_authentic (altered, or another row's), malformed; such a subscriber is sent nothing, such a key's owner fields read as null",
  labelNames: ["reason"],
});

/** Counts a value that did not open, so an alert can fire before a welcome is missed. */
export function countPersonalDataUnsealFailure(err: unknown): void {
  unopened.labels(err instanceof SecretUnsealError ? err.reason : "other").inc();
}
