import type { SignalReading } from "../../domain/signals/reading.js";
import type { SignalKey } from "../../domain/signals/signal-keys.js";

const DAY = 86_400_000;

/**
 * The live feed's memory of what its providers delivered: per signal, readings in time order,
 * trimmed to `retentionMs` (90 days covers the dark_pool z-score window). Durable history is the
 * signal-history store's job, not this cache's.
 */
export class ReadingCache {
  private readonly bySignal = new Map<SignalKey, SignalReading[]>();

  constructor(private readonly retentionMs = 90 * DAY) {}

  record(readings: readonly SignalReading[]): void {
    for (const r of readings) {
      const list = this.bySignal.get(r.key) ?? [];
      const last = list[list.length - 1];
      // Providers re-send the latest value on every poll; keep one row per observation time.
      if (last && r.observedAt <= last.observedAt) {
        if (r.observedAt === last.observedAt) list[list.length - 1] = r;
        continue;
      }
      list.push(r);
      const cutoff = r.observedAt - this.retentionMs;
      let drop = 0;
      while (drop < list.length && (list[drop] as SignalReading).observedAt < cutoff) drop++;
      if (drop > 0) list.splice(0, drop);
      this.bySignal.set(r.key, list);
    }
  }

  latest(at: number): Map<SignalKey, SignalReading> {
    const out = new Map<SignalKey, SignalReading>();
    for (const [key, list] of this.bySignal) {
      for (let i = list.length - 1; i >= 0; i--) {
        const r = list[i] as SignalReading;
        if (r.observedAt <= at) {
          out.set(key, r);
          break;
        }
      }
    }
    return out;
  }

  between(key: SignalKey, from: number, to: number): SignalReading[] {
    return (this.bySignal.get(key) ?? []).filter((r) => r.observedAt >= from && r.observedAt <= to);
  }
}
