import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { report, type BenchResult } from "./result.js";
import { median } from "./stats.js";
import { openStore } from "../src/store/open-store.js";
import { QuotaLeases } from "../src/application/quota-leases.js";
import { wallClock } from "../src/runtime/clocks/clock.js";
import type { CounterWindow } from "../src/store/ports/counters.js";
import type { WindowCounter } from "../src/application/usage-limiter.js";

const REQUESTS = 10_000;
const ROUNDS = 3;
/** Requests sharing one group commit in the batched case: a burst on 20 connections. */
const BURST = 20;

/** The two windows every keyed request is counted in (daily quota, per-minute limit), never full. */
function windowsAt(now: number, key: string): CounterWindow[] {
  return [
    { bucket: `quota:${key}:day`, limit: 1e12, expiresAt: now + 86_400_000 },
    { bucket: `minute:${key}:m`, limit: 1e12, expiresAt: now + 60_000 },
  ];
}

/** CPU time (user + system) per request, µs, counting `REQUESTS` requests `together` at a time. */
async function cpuPerRequest(counter: WindowCounter, together: number, key: string): Promise<number> {
  const windows = windowsAt(Date.now(), key);
  const before = process.cpuUsage();
  for (let i = 0; i < REQUESTS / together; i++) {
    await Promise.all(Array.from({ length: together }, () => counter.consumeAll(windows, Date.now())));
  }
  const used = process.cpuUsage(before);
  return (used.user + used.system) / REQUESTS;
}

/**
 * What counting a keyed request costs on SQLite (docs/decisions.md, "Quotas across processes"):
 * per request in the store, as the service does, when each request is its own group commit
 * (requests arriving evenly, one per event-loop turn) and when a burst shares one; and through
 * `QuotaLeases` over the same store, the MongoDB path's way, for comparison. Alternating rounds,
 * median of each.
 */
export async function run(): Promise<BenchResult[]> {
  const dir = mkdtempSync(join(tmpdir(), "bench-quota-"));
  const store = await openStore(`sqlite:${join(dir, "mis.sqlite")}`);
  const leases = new QuotaLeases(store.counters, wallClock);
  leases.start();
  const alone: number[] = [];
  const burst: number[] = [];
  const leased: number[] = [];
  try {
    // Warm-up: statements prepared, JIT, the WAL grown.
    await cpuPerRequest(store.counters, 1, "warm");
    await cpuPerRequest(leases, 1, "warm-lease");
    for (let r = 0; r < ROUNDS; r++) {
      alone.push(await cpuPerRequest(store.counters, 1, `alone-${r}`));
      burst.push(await cpuPerRequest(store.counters, BURST, `burst-${r}`));
      leased.push(await cpuPerRequest(leases, 1, `leased-${r}`));
    }
  } finally {
    await leases.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
  const [a, b, l] = [median(alone), median(burst), median(leased)];
  process.stderr.write(`quota counting on SQLite, CPU per request: alone ${a.toFixed(1)} µs, ${BURST} per commit ${b.toFixed(1)} µs, leased ${l.toFixed(1)} µs\n`);
  return [
    report("quota.sqlite_per_request_cpu_one_per_commit", a, "µs"),
    report(`quota.sqlite_per_request_cpu_${BURST}_per_commit`, b, "µs", a),
    report("quota.sqlite_leased_cpu_per_request", l, "µs", a),
  ];
}
