import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";

/**
 * The one Prometheus registry of the process, served at GET /metrics. Modules register their
 * own collectors on it, through the functions below; nothing else is global.
 */
export const metricsRegistry = new Registry();
collectDefaultMetrics({ register: metricsRegistry });

/** What every collector of the process states: its name, its help line and its label names. */
export interface MetricSpec<L extends string> {
  readonly name: string;
  readonly help: string;
  readonly labelNames: readonly L[];
}

export function processCounter<L extends string>(spec: MetricSpec<L>): Counter<L> {
  return new Counter({ ...spec, registers: [metricsRegistry] });
}

export function processGauge<L extends string>(spec: MetricSpec<L>): Gauge<L> {
  return new Gauge({ ...spec, registers: [metricsRegistry] });
}

export function processHistogram<L extends string>(spec: MetricSpec<L> & { readonly buckets: readonly number[] }): Histogram<L> {
  return new Histogram({ ...spec, buckets: [...spec.buckets], registers: [metricsRegistry] });
}
