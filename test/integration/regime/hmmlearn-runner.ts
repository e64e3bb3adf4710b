import { execFileSync } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { HmmParams, Observations } from "../../../src/domain/regime/hmm-params.js";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");

/** hmmlearn's model JSON: the same {startprob, transmat, means, covars} the CLI writes. */
export interface PeerModel {
  readonly startprob: number[];
  readonly transmat: number[][];
  readonly means: number[][];
  readonly covars: number[][];
}

export interface PeerScore {
  readonly loglik: number;
  readonly posteriors: number[][];
  readonly viterbi_logprob: number;
  readonly viterbi: number[];
}

export interface PeerFit {
  readonly loglik: number;
  readonly seconds: number;
  readonly iterations: number;
  readonly model: PeerModel;
}

/**
 * Installs hmmlearn into the cached venv when missing (scripts/ensure-hmmlearn.sh) and returns
 * its python. Throws with the script's message when it cannot: the suite fails, never skips.
 */
export function ensureHmmlearn(): string {
  return execFileSync(join(root, "scripts", "ensure-hmmlearn.sh"), { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] }).trim();
}

function rows(a: Float64Array, n: number, m: number): number[][] {
  return Array.from({ length: n }, (_, i) => Array.from(a.subarray(i * m, i * m + m)));
}

export function toPeerModel(p: HmmParams): PeerModel {
  return {
    startprob: Array.from(p.startProb),
    transmat: rows(p.transMat, p.k, p.k),
    means: rows(p.means, p.k, p.d),
    covars: rows(p.vars, p.k, p.d),
  };
}

export function toRows(obs: Observations): number[][] {
  return rows(obs.data, obs.t, obs.d);
}

function call<T>(python: string, request: unknown): T {
  const out = execFileSync(python, [join(root, "scripts", "hmmlearn-check.py")], {
    input: JSON.stringify(request),
    encoding: "utf8",
    maxBuffer: 512 * 1024 * 1024,
    stdio: ["pipe", "pipe", "inherit"],
  });
  return JSON.parse(out) as T;
}

export function peerScore(python: string, cases: { params: HmmParams; obs: Observations }[]): PeerScore[] {
  const request = { kind: "score", cases: cases.map((c) => ({ model: toPeerModel(c.params), obs: toRows(c.obs) })) };
  return call<{ cases: PeerScore[] }>(python, request).cases;
}

export function peerFit(python: string, init: HmmParams, obs: Observations, iterations: number): PeerFit {
  return call<PeerFit>(python, { kind: "fit", model: toPeerModel(init), obs: toRows(obs), iterations });
}
