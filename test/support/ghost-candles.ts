import { readFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import type { Candle } from "../../src/domain/signals/reading.js";
import type { Asset } from "../../src/domain/signals/signal-keys.js";

/**
 * Loads the bundled Binance hourly candles of one asset (market-data/*.csv.gz, header
 * `timestamp,open,high,low,close,volume`) for the Ghost Trader backtests and benchmarks. Kept
 * separate from the replay feed on purpose: the backtest must not depend on unfinished feed code.
 */
const FILES: Readonly<Record<Asset, string>> = {
  BTC: "btc_usdt_1h_binance.csv.gz",
  ETH: "eth_usdt_1h_binance.csv.gz",
  SOL: "sol_usdt_1h_binance.csv.gz",
  TAO: "tao_usdt_1h_binance.csv.gz",
};

export function loadHourlyCandles(asset: Asset, root = process.cwd()): Candle[] {
  const text = gunzipSync(readFileSync(join(root, "market-data", FILES[asset]))).toString("utf8");
  const lines = text.split("\n");
  const out: Candle[] = [];
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i];
    if (line === undefined || line.length === 0) continue;
    const [ts, o, h, l, c, v] = line.split(",");
    const t = Date.parse(ts ?? "");
    const bar = { t, o: Number(o), h: Number(h), l: Number(l), c: Number(c), v: Number(v) };
    if (![bar.t, bar.o, bar.h, bar.l, bar.c, bar.v].every(Number.isFinite)) {
      throw new Error(`${FILES[asset]} line ${i + 1}: not a candle: ${line}`);
    }
    out.push(bar);
  }
  return out;
}

export function between(candles: readonly Candle[], fromIso: string, toIso: string): Candle[] {
  const from = Date.parse(fromIso);
  const to = Date.parse(toIso);
  return candles.filter((c) => c.t >= from && c.t < to);
}
