import { writeFileSync } from "node:fs";

/** Prints a generated markdown report and, unless `out` is "-", writes it to that file too. */
export function writeReport(out: string, md: string): void {
  process.stdout.write(md);
  if (out === "-") return;
  writeFileSync(out, md);
  process.stderr.write(`wrote ${out}\n`);
}
