import { readFile } from "node:fs/promises";
import { promisify } from "node:util";
import { gunzip } from "node:zlib";
import { z } from "zod";

const gunzipAsync = promisify(gunzip);

/** How to read one bundled file: its time column and the numeric columns kept. */
export interface TableSpec {
  readonly timeColumn: "timestamp" | "date";
  readonly valueColumns: readonly string[];
}

/** A file held column-wise in typed arrays: compact, and binary-searchable by time. */
export interface ColumnTable {
  readonly file: string;
  /** Row time in ms since epoch (UTC): candle open time, or 00:00 UTC of a daily row's date. */
  readonly time: Float64Array;
  readonly columns: Readonly<Record<string, Float64Array>>;
}

const headerSchema = (spec: TableSpec) =>
  z
    .array(z.string())
    .refine((cols) => [spec.timeColumn, ...spec.valueColumns].every((c) => cols.includes(c)), {
      message: `header must contain ${[spec.timeColumn, ...spec.valueColumns].join(",")}`,
    });

const ISO_HOUR = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})Z$/;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Hand-rolled parse of the two time formats the data README promises (faster than Date.parse). */
export function parseTime(text: string, kind: TableSpec["timeColumn"]): number {
  const m = (kind === "timestamp" ? ISO_HOUR : ISO_DATE).exec(text);
  if (!m) return Number.NaN;
  const [, y, mo, d, h, mi, s] = m;
  return Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h ?? 0), Number(mi ?? 0), Number(s ?? 0));
}

/**
 * Parses CSV text (header row, comma-separated, no quoting — the bundled files have none in the
 * columns read here) into typed columns. Every cell read must be a finite number and times must
 * strictly increase: a corrupt file fails loudly at start instead of feeding wrong signals.
 */
export function parseCsvTable(file: string, text: string, spec: TableSpec): ColumnTable {
  const lines = text.split("\n");
  const header = headerSchema(spec).parse((lines[0] ?? "").trim().split(","));
  const timeIdx = header.indexOf(spec.timeColumn);
  const valueIdx = spec.valueColumns.map((c) => header.indexOf(c));
  let rows = lines.length - 1;
  while (rows > 0 && (lines[rows] ?? "").trim() === "") rows--;
  const time = new Float64Array(rows);
  const values = spec.valueColumns.map(() => new Float64Array(rows));
  let previous = Number.NEGATIVE_INFINITY;
  for (let r = 0; r < rows; r++) {
    const cells = (lines[r + 1] ?? "").split(",");
    const t = parseTime(cells[timeIdx] ?? "", spec.timeColumn);
    if (!(t > previous)) throw new Error(`${file} line ${r + 2}: time missing, malformed or not increasing`);
    previous = t;
    time[r] = t;
    for (let c = 0; c < valueIdx.length; c++) {
      const v = Number(cells[valueIdx[c] ?? -1]);
      if (!Number.isFinite(v)) throw new Error(`${file} line ${r + 2}: ${spec.valueColumns[c]} is not a finite number`);
      (values[c] as Float64Array)[r] = v;
    }
  }
  return {
    file,
    time,
    columns: Object.fromEntries(spec.valueColumns.map((c, i) => [c, values[i] as Float64Array])),
  };
}

export async function readGzText(path: string): Promise<string> {
  return (await gunzipAsync(await readFile(path))).toString("utf8");
}

export async function loadCsvTable(path: string, spec: TableSpec): Promise<ColumnTable> {
  const file = path.split("/").pop() ?? path;
  return parseCsvTable(file, await readGzText(path), spec);
}
