// Fails CI when the vitest JSON report shows a skipped, pending or todo test, or no tests at all.
import { readFileSync } from "node:fs";

const file = process.argv[2] ?? "test-artifacts/vitest.json";
const report = JSON.parse(readFileSync(file, "utf8"));
const notRun = [];
for (const suite of report.testResults ?? []) {
  for (const t of suite.assertionResults ?? []) {
    if (t.status !== "passed" && t.status !== "failed") notRun.push(`${t.status}: ${t.fullName} (${suite.name})`);
  }
}
if ((report.numTotalTests ?? 0) === 0) {
  console.error("check-no-skips: the report contains no tests");
  process.exit(1);
}
if (notRun.length > 0) {
  console.error(`check-no-skips: ${notRun.length} test(s) did not run:\n${notRun.join("\n")}`);
  process.exit(1);
}
console.log(`check-no-skips: all ${report.numTotalTests} tests ran (${report.numPassedTests} passed)`);
if (!process.env.MONGODB_URL) {
  // Not skipped but never created: said here so that a green run is not read as covering them.
  console.log(
    "check-no-skips: MONGODB_URL unset, so the MongoDB adapter's concurrency tests (concurrent quota counting, quota leases twice, " +
      "one welcome e-mail per subscriber, the 2,000-request burst across two processes, racing evidence writes) were not created: FerretDB updates one document non-atomically, " +
      "and they would test FerretDB, not the adapter (README, \"Tests\")",
  );
}
