import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fitHmm } from "../../../src/domain/regime/fit-hmm.js";
import type { Observations } from "../../../src/domain/regime/hmm-params.js";
import { initialParams } from "../../../src/domain/regime/initial-params.js";
import { hmmFromJson, hmmToJson } from "../../../src/domain/regime/model-json.js";
import { sampleHmm } from "../../support/regime/sample-hmm.js";
import { varianceFloors } from "../../../src/domain/regime/variance-floor.js";
import { runCli } from "../../support/cli.js";
import { randomParams } from "../../unit/regime/fixtures.js";
import { ensureHmmlearn, peerFit, peerScore } from "./hmmlearn-runner.js";

/** |a − b| ≤ 1e-9·max(1, |b|), as in hmmlearn.test.ts. */
function close(a: number, b: number): boolean {
  return Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(b));
}

function csv(obs: Observations): string {
  const header = Array.from({ length: obs.d }, (_, f) => `feature_${f}`).join(",");
  const rows = Array.from({ length: obs.t }, (_, r) => Array.from(obs.data.subarray(r * obs.d, r * obs.d + obs.d)).join(","));
  return [header, ...rows].join("\n") + "\n";
}

interface Scored {
  loglik: number;
  filtered: number[][];
  viterbi: number[];
}

let python = "";
let dir = "";

beforeAll(() => {
  python = ensureHmmlearn();
  dir = mkdtempSync(join(tmpdir(), "regime-cli-"));
}, 600_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("regime CLI (issue 6's quant CLI) against hmmlearn 0.3.3", () => {
  // 3×2 runs the JS passes, 8×4 the service's WebAssembly kernel.
  for (const [k, d, t, seed] of [
    [3, 2, 400, 21],
    [8, 4, 1200, 22],
  ] as const) {
    it(`fits and scores a ${k}-state × ${d}-feature sequence of ${t} rows as hmmlearn does`, async () => {
      const { obs } = sampleHmm(randomParams(k, d, seed, 0.85), t, seed + 1);
      const input = join(dir, `obs-${k}x${d}.csv`);
      writeFileSync(input, csv(obs));
      const iterations = 30;

      const fitted = await runCli(
        ["regime", "fit", "--input", input, "--states", String(k), "--seed", String(seed), "--iterations", String(iterations), "--tolerance=-1"],
        {},
      );
      expect(fitted.stderr).toContain(`"iterations":${iterations}`);
      expect(fitted.code).toBe(0);
      const model = JSON.parse(fitted.stdout) as ReturnType<typeof hmmToJson>;
      expect(Object.keys(model).sort()).toEqual(["covars", "means", "startprob", "transmat"]);
      expect(model.covars).toHaveLength(k);
      expect(model.covars.every((row) => row.length === d)).toBe(true);
      // The service's fit, bit for bit: the CSV round trip of the numbers is exact.
      const inProcess = fitHmm(obs, { states: k, seed, restarts: 1, maxIterations: iterations, tolerance: -1 });
      expect(model).toEqual(hmmToJson(inProcess.params));

      const modelPath = join(dir, `model-${k}x${d}.json`);
      writeFileSync(modelPath, fitted.stdout);
      const scored = await runCli(["regime", "score", "--model", modelPath, "--input", input], {});
      expect(scored.code, scored.stderr).toBe(0);
      const ours = JSON.parse(scored.stdout) as Scored;
      expect(ours.filtered).toHaveLength(t);
      expect(ours.viterbi).toHaveLength(t);

      // hmmlearn from the same start and the same number of EM steps: ours is at least as likely.
      const init = initialParams(obs, k, seed, varianceFloors(obs));
      const theirFit = peerFit(python, init, obs, iterations);
      expect(ours.loglik, `ours ${ours.loglik} vs hmmlearn ${theirFit.loglik}`).toBeGreaterThanOrEqual(theirFit.loglik - 1e-9 * Math.abs(theirFit.loglik));

      // Scoring: the whole sequence, and prefixes whose last smoothed row is the filtered row.
      const params = hmmFromJson(model);
      const prefixes = [1, 2, 17, Math.floor(t / 2), t];
      const cases = prefixes.map((n) => ({ params, obs: { t: n, d, data: obs.data.slice(0, n * d) } }));
      const peer = peerScore(python, cases);
      const whole = peer[peer.length - 1]!;
      expect(close(ours.loglik, whole.loglik), `loglik ${ours.loglik} vs ${whole.loglik}`).toBe(true);
      expect(ours.viterbi).toEqual(whole.viterbi);
      prefixes.forEach((n, i) => {
        const theirs = peer[i]!.posteriors[n - 1]!;
        const row = ours.filtered[n - 1]!;
        const worst = Math.max(...row.map((p, s) => Math.abs(p - theirs[s]!)));
        expect(worst, `filtered row ${n - 1}`).toBeLessThanOrEqual(1e-9);
      });
    });
  }

  it("refuses a model whose feature count differs from the CSV's, and a CSV cell that is not a number", async () => {
    const { obs } = sampleHmm(randomParams(2, 2, 5, 0.8), 50, 6);
    const input = join(dir, "two-features.csv");
    writeFileSync(input, csv(obs));
    const threeFeatures = join(dir, "three-features.json");
    writeFileSync(threeFeatures, JSON.stringify(hmmToJson(randomParams(2, 3, 7))));
    const mismatch = await runCli(["regime", "score", "--model", threeFeatures, "--input", input], {});
    expect(mismatch.code).toBe(2);
    expect(mismatch.stderr).toContain("obs.csv has 2 feature columns, the model 3");
    expect(mismatch.stdout).toBe("");

    const bad = join(dir, "bad.csv");
    writeFileSync(bad, "a,b\n1,2\n3,oops\n");
    const refused = await runCli(["regime", "fit", "--input", bad, "--states", "2", "--seed", "1"], {});
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('obs.csv line 3, column b: "oops" is not a finite number');
    expect(refused.stdout).toBe("");
  });
});
