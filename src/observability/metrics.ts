import { Registry, collectDefaultMetrics } from "prom-client";

/**
 * The one Prometheus registry of the process, served at GET /metrics. Modules register their
 * own collectors on it; nothing else is global.
 */
export const metricsRegistry = new Registry();
collectDefaultMetrics({ register: metricsRegistry });
