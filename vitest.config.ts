import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    // The JSON report lets .ci/run prove that no test was skipped.
    reporters: ["default", ["json", { outputFile: "test-artifacts/vitest.json" }]],
    projects: [
      {
        test: {
          name: "unit",
          include: ["test/unit/**/*.test.ts"],
          environment: "node",
          // Unit suites first, then the integration suites with their own worker cap.
          sequence: { groupOrder: 0 },
        },
      },
      {
        test: {
          name: "integration",
          include: ["test/integration/**/*.test.ts", "test/contract/**/*.test.ts", "test/e2e/**/*.test.ts"],
          environment: "node",
          globalSetup: ["test/support/global-setup.ts"],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // Two cores: keep heavy suites from starving each other's servers.
          maxWorkers: 2,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
