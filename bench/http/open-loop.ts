import autocannon from "autocannon";

/** Latencies (ms, full precision) of one fixed-rate run, and what autocannon counted. */
export interface OpenLoopRun {
  readonly latenciesMs: number[];
  readonly sent: number;
  readonly non2xx: number;
  readonly errors: number;
  readonly seconds: number;
}

/**
 * Offers `rate` requests per second, whatever the server does (autocannon's `overallRate`),
 * the way wrk2 measures: latency at a load users produce, not at the server's saturation point
 * (closed-loop, where a slow server slows its own load and hides its queueing).
 *
 * autocannon meters the rate per connection and per second: each connection sends until it has
 * made its share of this second's requests, then waits for the next second. So the offered load
 * arrives in short bursts of `connections` concurrent requests, which is harsher than wrk2's even
 * spacing, not kinder. Latencies are taken from autocannon's per-response event (write of the
 * request to the end of the response, sub-millisecond precision); its own histogram keeps whole
 * milliseconds only.
 */
export async function openLoop(url: string, headers: Record<string, string>, rate: number, seconds: number, connections: number): Promise<OpenLoopRun> {
  const latenciesMs: number[] = [];
  const r = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon({ url, headers, connections, overallRate: rate, duration: seconds }, (err: unknown, res: autocannon.Result) =>
      err ? reject(err instanceof Error ? err : new Error(String(err))) : resolve(res),
    );
    instance.on("response", (_client, statusCode, _bytes, responseTime) => {
      if (statusCode >= 200 && statusCode < 300) latenciesMs.push(responseTime);
    });
  });
  return { latenciesMs, sent: r.requests.sent, non2xx: r.non2xx, errors: r.errors, seconds };
}

/** The q-quantile (0..1) of the samples, nearest rank. */
export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[rank] as number;
}
