import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { z } from "zod";
import { Actor } from "../src/runtime/actor.js";
import { LocalActorHost } from "../src/runtime/local/local-host.js";
import { openSqliteStore } from "../src/store/sqlite/sqlite-store.js";
import { wallClock } from "../src/runtime/clocks/clock.js";
import { createLogger } from "../src/logging/logger.js";
import { result, type BenchResult } from "./result.js";

/** A turn that only touches memory (issue 4's calls/s figure): no state, nothing to commit. */
class MemoryActor extends Actor {
  static readonly actorType = "BenchMemory";
  private n = 0;

  async bump(): Promise<number> {
    return ++this.n;
  }
}

/** A state-saving turn: read, write, one SQLite commit. */
class StateActor extends Actor {
  static readonly actorType = "BenchState";

  async add(by: number): Promise<number> {
    const n = ((await this.ctx.state.get("n", z.number())) ?? 0) + by;
    this.ctx.state.set("n", n);
    return n;
  }
}

/** One one-shot reminder each; the firing reports how late it ran (wall clock). */
class AlarmActor extends Actor {
  static readonly actorType = "BenchAlarm";
  static lags: number[] = [];

  async arm(dueAt: number): Promise<void> {
    this.ctx.reminders.set("alarm", { dueAt, payload: dueAt });
  }

  override async receiveReminder(_name: string, payload: unknown): Promise<void> {
    AlarmActor.lags.push(Date.now() - z.number().parse(payload));
  }
}

const BATCH = 1000;
/** 10,000 reminders due evenly over 10 s: 1,000 firings a second, each a committed turn. */
const SPREAD_MS = 10_000;

/** Calls per second of `call(i)`, `total` calls issued in concurrent batches of BATCH. */
async function rate(total: number, call: (i: number) => Promise<unknown>): Promise<number> {
  const once = async () => {
    const started = performance.now();
    for (let done = 0; done < total; done += BATCH) {
      const batch: Promise<unknown>[] = [];
      for (let i = done; i < done + BATCH; i++) batch.push(call(i));
      await Promise.all(batch);
    }
    return total / ((performance.now() - started) / 1000);
  };
  await once(); // warms the JIT and activates every actor
  const runs = [await once(), await once(), await once()].sort((a, b) => a - b);
  return runs[1] as number;
}

function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number;
}

/**
 * Issue 4, local host on SQLite: calls/s through the typed proxy on one actor and across 1,000
 * actors (memory-only turns; target >= 50,000 calls/s across 1,000) beside a plain async
 * function call doing the same work in the same run; state-saving turns/s; and the wall-clock
 * lag of 10,000 scheduled one-shot reminders due evenly over ten seconds (target p99 <= 50 ms)
 * with the host's default 10 ms poll.
 */
export async function run(): Promise<BenchResult[]> {
  const dir = mkdtempSync(join(tmpdir(), "actors-bench-"));
  const store = openSqliteStore(join(dir, "mis.sqlite"));
  const host = new LocalActorHost({ store: store.actorState, clock: wallClock, logger: createLogger("silent") });
  host.register(MemoryActor);
  host.register(StateActor);
  host.register(AlarmActor);
  await host.start();
  try {
    // Reminders first: measured after the call benchmarks, the lag also held their garbage
    // being collected (one ~200 ms pause at 1,000 firings/s), which is not the reminders' cost.
    const reminders = 10_000;
    // Untimed: activate the 10,000 actors, each with its reminder set an hour ahead.
    const alarms = Array.from({ length: reminders }, (_, i) => host.proxy(AlarmActor, `a${i}`));
    await Promise.all(alarms.map((a) => a.arm(Date.now() + 3_600_000)));
    // Then move them to a 10 s window starting in 3 s, in due order, a batch at a time, so each
    // is set well before it is due even when this machine is slow.
    const armStarted = Date.now();
    const start = armStarted + 3000;
    for (let done = 0; done < reminders; done += BATCH) {
      await Promise.all(alarms.slice(done, done + BATCH).map((a, j) => a.arm(start + Math.floor(((done + j) * SPREAD_MS) / reminders))));
    }
    const armedMs = Date.now() - armStarted;
    const deadline = start + SPREAD_MS + 10_000;
    while (AlarmActor.lags.length < reminders && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    const fired = AlarmActor.lags.length;
    const p99 = fired === reminders ? percentile(AlarmActor.lags, 99) : Number.POSITIVE_INFINITY;
    process.stderr.write(`   (10,000 reminders armed in ${armedMs} ms; fired ${fired}; lag p50 ${percentile(AlarmActor.lags, 50)} ms, max ${Math.max(...AlarmActor.lags)} ms)\n`);

    const counters = new Map<string, { n: number }>();
    const plain = async (id: string): Promise<number> => {
      let c = counters.get(id);
      if (!c) counters.set(id, (c = { n: 0 }));
      return ++c.n;
    };
    const calls = 200_000;
    const baseline = await rate(calls, () => plain("one"));
    const one = host.proxy(MemoryActor, "one");
    const oneRate = await rate(calls, () => one.bump());
    const proxies = Array.from({ length: 1000 }, (_, i) => host.proxy(MemoryActor, `m${i}`));
    const baselineMany = await rate(calls, (i) => plain(`m${i % 1000}`));
    const manyRate = await rate(calls, (i) => (proxies[i % 1000] as (typeof proxies)[number]).bump());

    const stateProxies = Array.from({ length: 100 }, (_, i) => host.proxy(StateActor, `s${i}`));
    const stateRate = await rate(20_000, (i) => (stateProxies[i % 100] as (typeof stateProxies)[number]).add(1));

    return [
      result("actors: local host calls/s, one actor, memory-only turns (baseline: plain async call)", oneRate, "calls/s", ">= 50,000 calls/s", oneRate >= 50_000, baseline),
      result("actors: local host calls/s across 1,000 actors, memory-only turns, SQLite store (baseline: plain async call)", manyRate, "calls/s", ">= 50,000 calls/s (issue 4)", manyRate >= 50_000, baselineMany),
      result("actors: local host state-saving turns/s on SQLite (file, WAL), 100 actors", stateRate, "turns/s", ">= 5,000 turns/s (own floor; issue 4 sets none)", stateRate >= 5_000),
      result("actors: reminder lag p99, 10,000 scheduled one-shot reminders due over 10 s (wall clock, 10 ms poll)", p99, "ms", "<= 50 ms (issue 4)", p99 <= 50),
    ];
  } finally {
    await host.shutdown();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
