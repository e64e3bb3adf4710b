import { randomBytes } from "node:crypto";
import type { EventEnvelope } from "../../../../src/events/event-envelope.js";
import { metricsRegistry } from "../../../../src/observability/metrics.js";

/** `mis_webhook_secret_unseal_failures_total{reason}` as /metrics shows it (per process). */
export async function unsealFailures(reason: string): Promise<number> {
  const metric = await metricsRegistry.getSingleMetric("mis_webhook_secret_unseal_failures_total")?.get();
  return metric?.values.find((v) => v.labels.reason === reason)?.value ?? 0;
}

/** A BTC ghost.signal entry whose `trade_id` tells its delivery apart at the receiver. */
export function ghostSignal(tradeId: string): EventEnvelope {
  return {
    id: randomBytes(8).toString("hex"),
    event: "ghost.signal",
    timestamp: new Date().toISOString(),
    data: { asset: "BTC", action: "ENTRY", trade_id: tradeId, price: 91000, size: 0.1, mode: "A", reason: "test", pnl_usd: null, is_paper: true },
  };
}
