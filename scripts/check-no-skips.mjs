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
