import { processCounter, processGauge } from "./metrics.js";

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

const holds = processGauge({
  name: "mis_live_provider_hold_until_seconds",
  help: "When a live source's own ask to wait (the Retry-After of a 429 or of Binance's 418 IP ban) ends for this process's poller, in Unix seconds; 0 when none holds",
  labelNames: ["poller"],
});

/** The poller's provider hold as it stands after a poll: its end (wall ms), or null when none holds. */
export function showLiveHold(poller: string, untilMs: number | null): void {
  holds.labels(poller).set(untilMs === null ? 0 : Math.ceil(untilMs / 1000));
}
