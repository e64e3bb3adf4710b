import { join } from "node:path";
import { aggregateCandles, appendAfter } from "../../domain/signals/aggregate-candles.js";
import { CandleSeries } from "../../domain/signals/candle-series.js";
import type { CalendarEvent } from "../../domain/signals/macro-calendar.js";
import type { Asset } from "../../domain/signals/signal-keys.js";
import { parseCalendar } from "./calendar-file.js";
import { loadCsvTable, readGzText, type ColumnTable } from "./csv-table.js";
import { CALENDAR_FILE, DATASET_FILES, type DatasetTableName } from "./dataset-files.js";

const HOUR = 3_600_000;

export type ReplayInterval = "1h" | "4h" | "1d";

export interface ReplayDataset {
  readonly tables: Readonly<Record<DatasetTableName, ColumnTable>>;
  readonly candles: Readonly<Record<Asset, Readonly<Record<ReplayInterval, CandleSeries>>>>;
  readonly calendar: readonly CalendarEvent[];
}

function toCandles(table: ColumnTable, intervalMs: number): CandleSeries {
  const c = table.columns;
  const col = (name: string) => c[name] ?? new Float64Array(0);
  return new CandleSeries(intervalMs, table.time, col("open"), col("high"), col("low"), col("close"), col("volume"));
}

function intervals(h1: CandleSeries, h4?: CandleSeries): Record<ReplayInterval, CandleSeries> {
  return { "1h": h1, "4h": h4 ?? aggregateCandles(h1, 4 * HOUR), "1d": aggregateCandles(h1, 24 * HOUR) };
}

/** Loads every bundled file in parallel (gunzip runs on libuv's thread pool). */
export async function loadReplayDataset(dir: string): Promise<ReplayDataset> {
  const names = Object.keys(DATASET_FILES) as DatasetTableName[];
  const [loaded, calendarText] = await Promise.all([
    Promise.all(names.map((n) => loadCsvTable(join(dir, DATASET_FILES[n].file), DATASET_FILES[n].spec))),
    readGzText(join(dir, CALENDAR_FILE)),
  ]);
  const tables = Object.fromEntries(names.map((n, i) => [n, loaded[i] as ColumnTable])) as Record<
    DatasetTableName,
    ColumnTable
  >;
  // TAO: Binance 1 h ends 2026-02-19; KuCoin 1 h (the only later hourly source) continues it.
  const tao1h = appendAfter(toCandles(tables.tao_1h, HOUR), toCandles(tables.tao_1h_kucoin, HOUR));
  // The Binance 4 h file covers the 1 h file's September 2024 gap; KuCoin bars extend it after.
  const tao4h = appendAfter(toCandles(tables.tao_4h, 4 * HOUR), aggregateCandles(tao1h, 4 * HOUR));
  return {
    tables,
    candles: {
      BTC: intervals(toCandles(tables.btc_1h, HOUR)),
      ETH: intervals(toCandles(tables.eth_1h, HOUR)),
      SOL: intervals(toCandles(tables.sol_1h, HOUR)),
      TAO: intervals(tao1h, tao4h),
    },
    calendar: parseCalendar(calendarText),
  };
}
