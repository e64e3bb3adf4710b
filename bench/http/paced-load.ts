import { Agent, request } from "node:http";

/** Latencies (ms) of one evenly paced run, each from the request's intended send time. */
export interface PacedRun {
  readonly latenciesMs: number[];
  readonly failed: number;
}

/**
 * wrk2's way of offering a fixed rate: request i is due at t0 + i / rate, sent as soon as the
 * client gets to it, and its latency runs from when it was due, not from when it went out. A
 * server (or client) that falls behind therefore pays for every request it delayed, instead of
 * quietly receiving fewer (coordinated omission). Requests queue for one of `sockets` keep-alive
 * connections, as a real client pool would.
 *
 * The beside-it autocannon `overallRate` run sends each second's quota in a burst at the start
 * of the second (see open-loop.ts); this one spreads the same rate evenly.
 */
export async function pacedLoad(url: string, headers: Record<string, string>, rate: number, seconds: number, sockets = 64): Promise<PacedRun> {
  const agent = new Agent({ keepAlive: true, maxSockets: sockets });
  const target = new URL(url);
  const total = Math.round(rate * seconds);
  const interval = 1000 / rate;
  const latenciesMs: number[] = [];
  let failed = 0;
  const inFlight: Promise<void>[] = [];
  const send = (due: number): Promise<void> =>
    new Promise<void>((resolve) => {
      const req = request({ agent, host: target.hostname, port: target.port, path: target.pathname + target.search, headers }, (res) => {
        res.resume();
        res.on("end", () => {
          if (res.statusCode !== undefined && res.statusCode >= 200 && res.statusCode < 300) latenciesMs.push(performance.now() - due);
          else failed++;
          resolve();
        });
      });
      req.on("error", () => {
        failed++;
        resolve();
      });
      req.end();
    });
  const t0 = performance.now() + 20;
  let next = 0;
  while (next < total) {
    const now = performance.now();
    while (next < total && t0 + next * interval <= now) {
      inFlight.push(send(t0 + next * interval));
      next++;
    }
    await new Promise<void>((r) => setTimeout(r, 1));
  }
  await Promise.all(inFlight);
  agent.destroy();
  return { latenciesMs, failed };
}
