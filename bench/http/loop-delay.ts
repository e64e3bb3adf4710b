import { z } from "zod";
import { PerformanceObserver, constants, monitorEventLoopDelay, performance, type PerformanceEntry } from "node:perf_hooks";

/** How long the target's event loop was held up since the last read (the read resets it). */
export const loopDelaySchema = z.object({
  max_ms: z.number(),
  p99_ms: z.number(),
  /** Blocks of at least BLOCK_MS seen by the tick watcher, and how many of them GC explains. */
  blocks: z.number().int(),
  blocks_mostly_gc: z.number().int(),
  /**
   * Blocks in which the process used under half the block's time in CPU (all its threads): it
   * was waiting for a core, not working, so the machine made them, not the code.
   */
  blocks_descheduled: z.number().int(),
  /** The longest block the watcher saw, and the GC pause time inside it. */
  longest_block_ms: z.number(),
  longest_block_gc_ms: z.number(),
  /** The longest single GC pause, and how many full (mark-sweep-compact) collections ran. */
  gc_max_ms: z.number(),
  gc_major: z.number().int(),
});
export type LoopDelay = z.infer<typeof loopDelaySchema>;

/** A block this long or longer is one the p99 target (10 ms) notices. */
const BLOCK_MS = 10;
const TICK_MS = 5;

interface Span {
  readonly start: number;
  readonly end: number;
}

interface Block extends Span {
  /** CPU time (user + system, every thread of the process) spent during the block, ms. */
  readonly cpuMs: number;
}

function overlapMs(a: Span, spans: readonly Span[]): number {
  let sum = 0;
  for (const s of spans) sum += Math.max(0, Math.min(a.end, s.end) - Math.max(a.start, s.start));
  return sum;
}

/**
 * A target's own event-loop delay, read by the load generator around each measured round: it
 * tells a tail latency caused inside the target (a long synchronous turn: an actor's slice, a
 * store write, GC) from one caused by the machine or the client. A tick every 5 ms timestamps
 * each block so the GC pauses V8 reports can be laid over it: a block mostly covered by GC is
 * the collector's; the rest is JavaScript (an actor's turn, a request) or the machine.
 */
export function loopDelayProbe(): () => LoopDelay {
  const histogram = monitorEventLoopDelay({ resolution: 1 });
  histogram.enable();
  let gcs: Span[] = [];
  let gcMax = 0;
  let gcMajor = 0;
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      gcs.push({ start: e.startTime, end: e.startTime + e.duration });
      gcMax = Math.max(gcMax, e.duration);
      // Node's GC entries carry the collection's kind in `detail` (not in the DOM type).
      const kind = (e as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind;
      if (kind === constants.NODE_PERFORMANCE_GC_MAJOR) gcMajor += 1;
    }
  }).observe({ entryTypes: ["gc"] });
  let blocks: Block[] = [];
  let last = performance.now();
  let lastCpu = process.cpuUsage();
  setInterval(() => {
    const now = performance.now();
    const cpu = process.cpuUsage(lastCpu);
    if (now - last - TICK_MS >= BLOCK_MS) blocks.push({ start: last + TICK_MS, end: now, cpuMs: (cpu.user + cpu.system) / 1000 });
    last = now;
    lastCpu = process.cpuUsage();
  }, TICK_MS).unref();
  return () => {
    let longest: Span = { start: 0, end: 0 };
    let mostlyGc = 0;
    let descheduled = 0;
    for (const b of blocks) {
      if (b.end - b.start > longest.end - longest.start) longest = b;
      if (overlapMs(b, gcs) >= (b.end - b.start) / 2) mostlyGc += 1;
      // The CPU delta spans the tick interval that held the block (TICK_MS longer than it).
      if (b.cpuMs < (b.end - b.start + TICK_MS) / 2) descheduled += 1;
    }
    const out: LoopDelay = {
      max_ms: histogram.max / 1e6,
      p99_ms: histogram.percentile(99) / 1e6,
      blocks: blocks.length,
      blocks_mostly_gc: mostlyGc,
      blocks_descheduled: descheduled,
      longest_block_ms: longest.end - longest.start,
      longest_block_gc_ms: overlapMs(longest, gcs),
      gc_max_ms: gcMax,
      gc_major: gcMajor,
    };
    histogram.reset();
    gcs = [];
    blocks = [];
    gcMax = 0;
    gcMajor = 0;
    return out;
  };
}

/** Several rounds' reads as one: counts add up, the longest block and pauses are the maxima. */
export function mergeLoopDelays(reads: readonly LoopDelay[]): LoopDelay {
  const longest = reads.reduce<LoopDelay | null>((a, r) => (a === null || r.longest_block_ms > a.longest_block_ms ? r : a), null);
  const sum = (f: (r: LoopDelay) => number) => reads.reduce((s, r) => s + f(r), 0);
  const max = (f: (r: LoopDelay) => number) => reads.reduce((m, r) => Math.max(m, f(r)), 0);
  return {
    max_ms: max((r) => r.max_ms),
    p99_ms: max((r) => r.p99_ms),
    blocks: sum((r) => r.blocks),
    blocks_mostly_gc: sum((r) => r.blocks_mostly_gc),
    blocks_descheduled: sum((r) => r.blocks_descheduled),
    longest_block_ms: longest?.longest_block_ms ?? 0,
    longest_block_gc_ms: longest?.longest_block_gc_ms ?? 0,
    gc_max_ms: max((r) => r.gc_max_ms),
    gc_major: sum((r) => r.gc_major),
  };
}
