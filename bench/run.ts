import { readdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { BenchModule, BenchResult } from "./result.js";

/**
 * Runs every bench/*.bench.ts (or those named on the command line), prints a table and writes
 * bench/results.json. Each module measures its own baseline in the same run.
 */
const here = dirname(fileURLToPath(import.meta.url));
const only = process.argv.slice(2);
const files = readdirSync(here)
  .filter((f) => f.endsWith(".bench.ts"))
  .filter((f) => only.length === 0 || only.some((o) => f.startsWith(o)))
  .sort();

const all: BenchResult[] = [];
for (const file of files) {
  process.stderr.write(`\n## ${file}\n`);
  const mod = (await import(pathToFileURL(join(here, file)).href)) as BenchModule;
  const results = await mod.run();
  for (const r of results) {
    process.stderr.write(
      `${r.ok ? "ok  " : "MISS"} ${r.name}: ${r.value} ${r.unit}` +
        (r.baseline === null ? "" : ` (baseline ${r.baseline}, ratio ${r.ratio})`) +
        ` target ${r.target}\n`,
    );
  }
  all.push(...results);
}
writeFileSync(join(here, "results.json"), JSON.stringify(all, null, 2) + "\n");
process.stderr.write(`\nwrote bench/results.json (${all.length} entries)\n`);
