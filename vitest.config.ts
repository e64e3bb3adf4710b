import { defineConfig } from "vitest/config";

/** Suites that run a multi-replica cluster: alone, one file at a time (see the "cluster" project). */
const CLUSTER_SUITES = ["test/integration/runtime/dapr-chaos.test.ts", "test/integration/runtime/dapr-repeated-calls.test.ts", "test/integration/runtime/dapr-live-replicas.test.ts", "test/integration/runtime/dapr-warm-up.test.ts", "test/integration/runtime/dapr-odd-speed.test.ts"];
/** Suites that run a real language model (llama-server): one at a time, after the others (see the "model" project). */
const MODEL_SUITES = ["test/integration/llm/council-real-model.test.ts", "test/integration/llm/council-mode-state-machine.test.ts", "test/integration/llm/council-service.test.ts"];

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
          exclude: [...CLUSTER_SUITES, ...MODEL_SUITES],
          environment: "node",
          globalSetup: ["test/support/global-setup.ts"],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // Two cores: keep heavy suites from starving each other's servers.
          maxWorkers: 2,
          sequence: { groupOrder: 1 },
        },
      },
      {
        test: {
          // A llama-server answering at -t 1 keeps a core busy for minutes: beside the other
          // suites it held a 14-day warm-up past its 60 s promise in CI. One model suite at a time,
          // after the others (each starts its own server).
          name: "model",
          include: MODEL_SUITES,
          environment: "node",
          testTimeout: 60_000,
          hookTimeout: 180_000,
          maxWorkers: 1,
          sequence: { groupOrder: 2 },
        },
      },
      {
        test: {
          // Two-replica clusters on real daprd: each replica, its daprd, placement, scheduler and
          // Redis share these two cores, so a cluster runs alone, after every other suite (a
          // council suite's llama-server beside it once held a start-up past its 60 s promise).
          name: "cluster",
          include: CLUSTER_SUITES,
          environment: "node",
          testTimeout: 60_000,
          hookTimeout: 120_000,
          maxWorkers: 1,
          sequence: { groupOrder: 3 },
        },
      },
    ],
  },
});
