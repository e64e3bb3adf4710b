import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { gunzipSync } from "node:zlib";
import type { Candle } from "../../src/domain/signals/reading.js";

const marketData = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "market-data");

/**
 * Reads a bundled hourly OHLCV file (market-data/*.csv.gz, columns
 * timestamp,open,high,low,close,volume) into candles. Kept separate from the replay feed so the
 * regime tests and benchmark depend only on the data, not on another module's progress.
 */
export function loadHourlyCandles(file: string, from?: string, to?: string): Candle[] {
  const text = gunzipSync(readFileSync(join(marketData, file))).toString("utf8");
  const lines = text.split("\n");
  const header = lines[0]?.trim();
  if (header !== "timestamp,open,high,low,close,volume") throw new Error(`${file}: unexpected header ${header}`);
  const start = from === undefined ? -Infinity : Date.parse(from);
  const end = to === undefined ? Infinity : Date.parse(to);
  const out: Candle[] = [];
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i];
    if (!line) continue;
    const [ts, o, h, l, c, v] = line.split(",");
    const t = Date.parse(ts as string);
    if (t < start || t >= end) continue;
    out.push({ t, o: Number(o), h: Number(h), l: Number(l), c: Number(c), v: Number(v) });
  }
  return out;
}
