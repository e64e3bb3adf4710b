import type { Store } from "../store/store.js";
import type { Clock } from "../runtime/clocks/clock.js";
import type { Logger } from "../logging/logger.js";
import type { WindowCounter } from "../application/usage-limiter.js";
import { QuotaLeases } from "../application/quota-leases.js";

/** How this service counts keyed requests, and how it gives back what it holds on shutdown. */
export interface QuotaCounting {
  readonly counter: WindowCounter;
  readonly mode: "per-request" | "leases";
  /** Gives back unused leased calls; call after HTTP stopped, before the store closes. */
  close(): Promise<void>;
}

/**
 * SQLite counts every request in the store: the file is on this machine, a hit costs
 * microseconds inside a group-committed transaction (24 µs of CPU alone, 2 µs in a burst:
 * bench/quota.bench.ts), and the count is exact at every instant across processes. MongoDB pays a network round trip per operation, so its processes lease
 * blocks of calls (docs/decisions.md, "Quotas across processes").
 */
export function openQuotaCounting(store: Store, clock: Clock, logger: Logger): QuotaCounting {
  if (store.kind === "sqlite") return { counter: store.counters, mode: "per-request", close: async () => undefined };
  const leases = new QuotaLeases(store.counters, clock, {
    onError: (err) => logger.warn({ err: err instanceof Error ? err.message : String(err) }, "giving back leased quota calls failed; they stay counted until the window ends"),
  });
  leases.start();
  return { counter: leases, mode: "leases", close: () => leases.close() };
}
