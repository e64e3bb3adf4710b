import type { HmmParams } from "./hmm-params.js";
import { hmmModelSchema, type HmmModelJson } from "./model-schema.js";

/** HMM parameters to the plain `{startprob, transmat, means, covars}` JSON shape. */
export function hmmToJson(p: HmmParams): HmmModelJson {
  const rows = (a: Float64Array, n: number, m: number) => Array.from({ length: n }, (_, i) => Array.from(a.subarray(i * m, i * m + m)));
  return {
    startprob: Array.from(p.startProb),
    transmat: rows(p.transMat, p.k, p.k),
    means: rows(p.means, p.k, p.d),
    covars: rows(p.vars, p.k, p.d),
  };
}

/** Validates (zod) and converts back; throws a ZodError naming the bad field. */
export function hmmFromJson(json: unknown): HmmParams {
  const m = hmmModelSchema.parse(json);
  const k = m.startprob.length;
  const d = m.means[0]?.length ?? 0;
  return {
    k,
    d,
    startProb: Float64Array.from(normalised(m.startprob)),
    transMat: Float64Array.from(m.transmat.flatMap(normalised)),
    means: Float64Array.from(m.means.flat()),
    vars: Float64Array.from(m.covars.flat()),
  };
}

/** A stored distribution scaled to sum to exactly 1 (the schema allows a store's rounding). */
function normalised(row: readonly number[]): number[] {
  const sum = row.reduce((a, b) => a + b, 0);
  return row.map((x) => x / sum);
}
