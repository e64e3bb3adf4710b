import { existsSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { BenchModule, BenchResult } from "./result.js";

/**
 * Runs every bench/*.bench.ts (or those named on the command line), prints a table and writes
 * bench/results.json. Each module measures its own baseline in the same run. A filtered run
 * replaces only the entries of the modules it ran and keeps the others' from earlier runs.
 */
const here = dirname(fileURLToPath(import.meta.url));
const only = process.argv.slice(2);
const files = readdirSync(here)
  .filter((f) => f.endsWith(".bench.ts"))
  .filter((f) => only.length === 0 || only.some((o) => f.startsWith(o)))
  .sort();

const resultsPath = join(here, "results.json");
/** Entries by module file; results.json records which module wrote each entry. */
type Entry = BenchResult & { readonly bench?: string };

const all: Entry[] = [];
for (const file of files) {
  process.stderr.write(`\n## ${file}\n`);
  const mod = (await import(pathToFileURL(join(here, file)).href)) as BenchModule;
  const results = await mod.run();
  for (const r of results) {
    process.stderr.write(
      `${r.ok === null ? "    " : r.ok ? "ok  " : "MISS"} ${r.name}: ${r.value} ${r.unit}` +
        (r.baseline === null ? "" : ` (baseline ${r.baseline}, ratio ${r.ratio})`) +
        (r.target === null ? " (report)" : ` target ${r.target}`) + "\n",
    );
  }
  all.push(...results.map((r) => ({ ...r, bench: file })));
}
// Read only now: another filtered run may have written while this one measured.
const previous: Entry[] = only.length > 0 && existsSync(resultsPath) ? (JSON.parse(readFileSync(resultsPath, "utf8")) as Entry[]) : [];
// Earlier entries survive unless this run re-measured them: same module, or (entries written
// before results.json named the module) the same figure name.
const ran = new Set(files);
const names = new Set(all.map((r) => r.name));
const kept = previous.filter((r) => (r.bench === undefined ? !names.has(r.name) : !ran.has(r.bench)));
const merged = [...kept, ...all].sort((a, b) => (a.bench ?? "").localeCompare(b.bench ?? ""));
writeFileSync(resultsPath, JSON.stringify(merged, null, 2) + "\n");
process.stderr.write(`\nwrote bench/results.json (${all.length} entries from this run, ${kept.length} kept)\n`);
