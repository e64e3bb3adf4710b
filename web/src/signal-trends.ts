import type { MarketIntelClient } from "../../sdk/client.js";

// Histories change slowly (history TTL 300 s) and cost one call per signal, so a trend is
// fetched at most once an hour per key and signal: about 20 live signals → ~480 calls a day
// out of a Pro key's 10,000.
const TREND_LIFETIME_MS = 60 * 60 * 1000;
const READINGS = 48;
const CONCURRENCY = 3;

const cache = new Map<string, { at: number; values: Promise<number[] | null> }>();

function fetchTrend(client: MarketIntelClient, signalKey: string): Promise<number[] | null> {
  return client
    .signalHistory({ signal_key: signalKey, per_page: READINGS })
    .then((page) =>
      [...page.items]
        .sort((a, b) => Date.parse(a.recorded_at) - Date.parse(b.recorded_at))
        .map((i) => i.value)
        .filter((v): v is number => typeof v === "number" && Number.isFinite(v)),
    )
    // A missing trend is shown as "—"; the table itself already reports the signal's status.
    .catch(() => null);
}

/** Trends (oldest first) for the given signals, a few requests at a time, from the hourly cache. */
export function signalTrends(client: MarketIntelClient, signalKeys: readonly string[]): Map<string, Promise<number[] | null>> {
  const out = new Map<string, Promise<number[] | null>>();
  const queue: (() => void)[] = [];
  let running = 0;
  const pump = () => {
    while (running < CONCURRENCY && queue.length > 0) queue.shift()?.();
  };
  for (const key of signalKeys) {
    const id = `${client.apiKey ?? ""}|${key}`;
    const hit = cache.get(id);
    if (hit && Date.now() - hit.at < TREND_LIFETIME_MS) {
      out.set(key, hit.values);
      continue;
    }
    const values = new Promise<number[] | null>((resolve) => {
      queue.push(() => {
        running++;
        void fetchTrend(client, key).then((v) => {
          running--;
          resolve(v);
          pump();
        });
      });
    });
    cache.set(id, { at: Date.now(), values });
    out.set(key, values);
  }
  pump();
  return out;
}
