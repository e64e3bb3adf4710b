import { mkdtemp, readdir, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/**
 * When a row of a bundled file is known, by the file's kind: a bar at its close, a funding
 * settlement at its time, alternative.me's index at 00:00 of its day, any other daily figure at
 * the end of its day. The economic calendar is published ahead, so every row is kept.
 */
function knownAt(file: string, first: string): number | null {
  const t = Date.parse(first.length === 10 ? `${first}T00:00:00Z` : first);
  if (!Number.isFinite(t)) return null;
  if (file.includes("_1h_")) return t + HOUR;
  if (file.includes("_4h_")) return t + 4 * HOUR;
  if (file.startsWith("funding_")) return t;
  if (file.startsWith("fear_greed")) return t;
  return t + DAY;
}

/**
 * A copy of the bundled market data with every row not yet known at `cutoff` removed: what the
 * service would have had at that moment. Used to prove that nothing published for a time up to
 * `cutoff` reads anything after it.
 */
export async function truncatedMarketData(sourceDir: string, cutoff: number): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "market-data-cut-"));
  for (const file of await readdir(sourceDir)) {
    const raw = await readFile(join(sourceDir, file));
    if (!file.endsWith(".csv.gz")) {
      await writeFile(join(dir, file), raw);
      continue;
    }
    const lines = gunzipSync(raw).toString("utf8").split("\n");
    const header = lines[0] ?? "";
    const keep = file.startsWith("us_economic_calendar")
      ? lines.slice(1)
      : lines.slice(1).filter((line) => {
          const at = knownAt(file, line.split(",")[0] ?? "");
          return at !== null && at <= cutoff;
        });
    await writeFile(join(dir, file), gzipSync([header, ...keep.filter((l) => l.length > 0)].join("\n") + "\n"));
  }
  return dir;
}
