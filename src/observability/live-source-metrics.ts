import { processCounter } from "./metrics.js";

/** Created once per process: every service in it shares the collector. */
const polls = processCounter({
  name: "mis_live_polls_total",
  help: "Live-mode polls of each market-data source, by poller and outcome (ok, or the failure kind: timeout, http, network, circuit_open, ...)",
  labelNames: ["poller", "outcome"],
});

/** Counts one finished poll; a poll that finishes after its turn gave up waiting counts too. */
export function countLivePoll(poller: string, outcome: string): void {
  polls.labels(poller, outcome).inc();
}
