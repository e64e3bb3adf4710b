import { z } from "zod";
import { REGIMES } from "../market/vocabulary.js";
import { FEATURE_NAMES } from "./features.js";

/**
 * How far a stored row of probabilities may sum from 1. A store may keep fewer digits than a
 * double: Dapr's Redis actor state store was seen to keep 6 significant digits, which leaves a
 * row of 6 states summing to 0.999999 (issue 17). Each entry is then off by at most 5e-7 of
 * itself, so a row sums within 1e-5 for any state count we use; hmmFromJson renormalises the
 * rows it loads, so the model computes with exact distributions.
 */
const ROW_SUM_TOLERANCE = 1e-5;

const finite = z.number().refine(Number.isFinite, "must be finite");
const probability = z.number().min(0).max(1);
const positive = z.number().positive().refine(Number.isFinite, "must be finite");

/**
 * The bare diagonal Gaussian HMM as JSON: the `{startprob, transmat, means, covars}` shape of
 * the quant CLI (issue 6) and of hmmlearn's attributes, so a model moves between the two as is.
 * covars holds each state's variance vector (diagonal covariance).
 */
export const hmmModelSchema = z
  .object({
    startprob: z.array(probability).min(1),
    transmat: z.array(z.array(probability)),
    means: z.array(z.array(finite).min(1)),
    covars: z.array(z.array(positive)),
  })
  .superRefine((m, ctx) => {
    const k = m.startprob.length;
    const d = m.means[0]?.length ?? 0;
    const issue = (message: string, path: (string | number)[]) => ctx.addIssue({ code: "custom", message, path });
    if (Math.abs(sum(m.startprob) - 1) > ROW_SUM_TOLERANCE) issue("startprob must sum to 1", ["startprob"]);
    if (m.transmat.length !== k) issue(`transmat must have ${k} rows`, ["transmat"]);
    m.transmat.forEach((row, i) => {
      if (row.length !== k) issue(`row must have ${k} entries`, ["transmat", i]);
      else if (Math.abs(sum(row) - 1) > ROW_SUM_TOLERANCE) issue("row must sum to 1", ["transmat", i]);
    });
    if (m.means.length !== k) issue(`means must have ${k} rows`, ["means"]);
    if (m.covars.length !== k) issue(`covars must have ${k} rows`, ["covars"]);
    m.means.forEach((row, i) => row.length !== d && issue(`row must have ${d} entries`, ["means", i]));
    m.covars.forEach((row, i) => row.length !== d && issue(`row must have ${d} entries`, ["covars", i]));
  });
export type HmmModelJson = z.infer<typeof hmmModelSchema>;

/**
 * A saved regime model: the HMM plus everything needed to score new bars the way it was
 * trained (feature names, training-window standardizer) and to name its states, and how it was
 * fitted (reproducible from the seed and window).
 */
export const regimeModelSchema = z
  .object({
    format: z.literal("regime-hmm"),
    version: z.literal(1),
    covariance_type: z.literal("diag"),
    features: z.array(z.enum(FEATURE_NAMES)).min(1),
    hmm: hmmModelSchema,
    standardizer: z.object({ mean: z.array(finite), std: z.array(positive) }),
    labels: z.array(z.enum(REGIMES)),
    fit: z.object({
      seed: z.number().int(),
      restarts: z.number().int().positive(),
      iterations: z.number().int().nonnegative(),
      converged: z.boolean(),
      warm_started: z.boolean(),
      loglik: finite,
      bars: z.number().int().positive(),
      window_start: z.iso.datetime(),
      window_end: z.iso.datetime(),
      trained_at: z.iso.datetime(),
    }),
  })
  .superRefine((m, ctx) => {
    const k = m.hmm.startprob.length;
    const d = m.features.length;
    if ((m.hmm.means[0]?.length ?? 0) !== d) ctx.addIssue({ code: "custom", message: `means must have ${d} columns`, path: ["hmm", "means"] });
    if (m.standardizer.mean.length !== d || m.standardizer.std.length !== d) {
      ctx.addIssue({ code: "custom", message: `standardizer must have ${d} entries`, path: ["standardizer"] });
    }
    if (m.labels.length !== k) ctx.addIssue({ code: "custom", message: `labels must have ${k} entries`, path: ["labels"] });
  });
export type RegimeModelJson = z.infer<typeof regimeModelSchema>;

function sum(a: readonly number[]): number {
  return a.reduce((x, y) => x + y, 0);
}
