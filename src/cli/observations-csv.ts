import { z } from "zod";
import { observations, type Observations } from "../domain/regime/hmm-params.js";

/** zod 4's number rejects NaN and ±Infinity; an empty cell becomes NaN, never 0. */
const cell = z.number();

/**
 * A decimal number as written (`-1.5`, `.5`, `2e-3`). `Number()` alone also reads `0x10` as 16,
 * `0b11` as 3 and `Infinity`: a cell that is not a decimal is refused, as query integers and
 * settings are (docs/decisions.md).
 */
export const DECIMAL = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?$/i;

/**
 * The quant CLI's `obs.csv`: a header line naming the features, then one row per observation
 * with one number per feature. Plain comma-separated numbers need no CSV library (no quoting,
 * no embedded commas); a bad cell is reported by line and column, never read as NaN.
 */
export function parseObservationsCsv(text: string): { features: string[]; obs: Observations } {
  const lines = text.split(/\r?\n/);
  while (lines.length > 0 && lines[lines.length - 1]?.trim() === "") lines.pop();
  const header = lines[0];
  if (header === undefined || header.trim() === "") throw new Error("obs.csv: empty file, expected a header line");
  const features = header.split(",").map((h) => h.trim());
  // Plain names only: a quoted header would keep its quotes in the model's feature names.
  const odd = features.find((f) => f === "" || /["',]/.test(f));
  if (odd !== undefined) throw new Error(`obs.csv header: ${JSON.stringify(odd)} is not a plain feature name (no quotes, not empty)`);
  const rows: number[][] = [];
  for (let i = 1; i < lines.length; i++) {
    const cells = (lines[i] as string).split(",");
    if (cells.length !== features.length) throw new Error(`obs.csv line ${i + 1}: ${cells.length} cells, the header names ${features.length}`);
    rows.push(
      cells.map((raw, j) => {
        const parsed = cell.safeParse(DECIMAL.test(raw.trim()) ? Number(raw) : Number.NaN);
        if (!parsed.success) throw new Error(`obs.csv line ${i + 1}, column ${features[j]}: ${JSON.stringify(raw)} is not a finite number`);
        return parsed.data;
      }),
    );
  }
  if (rows.length === 0) throw new Error("obs.csv: no observations after the header");
  return { features, obs: observations(rows) };
}
