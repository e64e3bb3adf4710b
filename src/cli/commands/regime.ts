import { readFile } from "node:fs/promises";
import { parseArgs } from "node:util";
import { z } from "zod";
import { DEFAULT_MAX_ITERATIONS, DEFAULT_TOLERANCE, fitHmm } from "../../domain/regime/fit-hmm.js";
import { ForwardBackwardWorkspace, forwardInto } from "../../domain/regime/forward-backward.js";
import { hmmFromJson, hmmToJson } from "../../domain/regime/model-json.js";
import { viterbi } from "../../domain/regime/viterbi.js";
import type { CliCommand, CliIo } from "../io.js";
import { fail } from "../args.js";
import { DECIMAL, parseObservationsCsv } from "../observations-csv.js";

export const regimeUsage = [
  "usage: regime fit --input <obs.csv> --states K --seed S [--iterations N] [--restarts R] [--tolerance T]",
  "       regime score --model <model.json> --input <obs.csv>",
].join("\n");

/**
 * A number flag as typed, in decimal: a blank value is refused, not read as 0 (what `Number("")`
 * gives), and so is `0x10`, which `Number()` reads as 16.
 */
const numeric = z.string().trim().regex(DECIMAL, "must be a decimal number");
const integer = (min: number, max: number) => numeric.pipe(z.coerce.number<string>().int().min(min).max(max));

/**
 * Upper bounds a typo cannot pass: a fit of 1,000 restarts of 100,000 iterations is already far
 * beyond any use (the service fits 8 restarts of at most 200), and one more digit kept two shared
 * cores busy for hours.
 */
const MAX_RESTARTS = 1_000;
const MAX_ITERATIONS = 100_000;
const MAX_STATES = 64;
const fitArgs = z.object({
  input: z.string().min(1),
  states: integer(1, MAX_STATES),
  seed: integer(0, Number.MAX_SAFE_INTEGER),
  iterations: integer(1, MAX_ITERATIONS).default(DEFAULT_MAX_ITERATIONS),
  // One EM run from the seed's start, as hmmlearn's GaussianHMM(random_state=S) does; the
  // service's refits use more restarts (fit-hmm.ts), which a quant can ask for here too.
  restarts: integer(1, MAX_RESTARTS).default(1),
  // Stop when an iteration gains less than this; a negative value runs every iteration.
  tolerance: numeric.pipe(z.coerce.number<string>()).default(DEFAULT_TOLERANCE),
});
const scoreArgs = z.object({ model: z.string().min(1), input: z.string().min(1) });


function parse<T>(io: CliIo, schema: z.ZodType<T>, args: string[], names: readonly string[]): T | number {
  let values: Record<string, string | undefined>;
  try {
    const options = Object.fromEntries(names.map((n) => [n, { type: "string" as const }]));
    ({ values } = parseArgs({ args, options }) as { values: Record<string, string | undefined> });
  } catch (err) {
    return fail(io, `${regimeUsage}\n  ${err instanceof Error ? err.message : String(err)}`);
  }
  const parsed = schema.safeParse(values);
  if (!parsed.success) return fail(io, `${regimeUsage}\n${parsed.error.issues.map((i) => `  --${i.path.join(".")}: ${i.message}`).join("\n")}`);
  return parsed.data;
}

async function readObservations(io: CliIo, path: string) {
  try {
    return parseObservationsCsv(await readFile(path, "utf8"));
  } catch (err) {
    io.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    return null;
  }
}

/**
 * `regime fit`: Baum-Welch on the observations as given (no standardizing: the columns are the
 * quant's), with the service's kernels (fit-hmm.ts, the WebAssembly pass for 8×4). Prints the
 * model as `{startprob, transmat, means, covars}` (hmmlearn's attribute shapes, covars the
 * diagonal's variance vectors); how the fit went goes to stderr, so stdout stays the model.
 */
async function fit(args: string[], io: CliIo): Promise<number> {
  const a = parse(io, fitArgs, args, ["input", "states", "seed", "iterations", "restarts", "tolerance"]);
  if (typeof a === "number") return a;
  const read = await readObservations(io, a.input);
  if (read === null) return 1;
  if (read.obs.t < 2) return fail(io, "obs.csv: fitting needs at least two observations");
  // More states than observations leaves states no observation can start (hmmlearn refuses it too).
  if (a.states > read.obs.t) return fail(io, `--states ${a.states}: more states than the ${read.obs.t} observations`);
  const result = fitHmm(read.obs, { states: a.states, seed: a.seed, restarts: a.restarts, maxIterations: a.iterations, tolerance: a.tolerance });
  io.stdout.write(JSON.stringify(hmmToJson(result.params)) + "\n");
  io.stderr.write(
    JSON.stringify({ loglik: result.loglik, iterations: result.iterations, converged: result.converged, seed: result.seed, observations: read.obs.t, features: read.features }) + "\n",
  );
  return 0;
}

/**
 * `regime score`: log-likelihood, filtered posteriors (row t uses observations 1..t only: the
 * forward pass) and the Viterbi path of the observations under a saved model.
 */
async function score(args: string[], io: CliIo): Promise<number> {
  const a = parse(io, scoreArgs, args, ["model", "input"]);
  if (typeof a === "number") return a;
  let params;
  try {
    params = hmmFromJson(JSON.parse(await readFile(a.model, "utf8")));
  } catch (err) {
    const why = err instanceof z.ZodError ? err.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`).join("\n") : `  ${err instanceof Error ? err.message : String(err)}`;
    return fail(io, `model.json is not a {startprob, transmat, means, covars} model:\n${why}`);
  }
  const read = await readObservations(io, a.input);
  if (read === null) return 1;
  if (read.obs.d !== params.d) return fail(io, `obs.csv has ${read.obs.d} feature columns, the model ${params.d}`);
  const ws = new ForwardBackwardWorkspace(read.obs.t, params.k);
  const loglik = forwardInto(params, read.obs, ws);
  // Every state gives some observation probability 0 (a row far outside the model): nothing to
  // score. Said, with exit 1 as for an unreadable file, not printed as a null log-likelihood with exit 0.
  if (!Number.isFinite(loglik)) {
    io.stderr.write("obs.csv: an observation has probability 0 under every state of the model; nothing to score\n");
    return 1;
  }
  const k = params.k;
  const filtered = Array.from({ length: read.obs.t }, (_, r) => Array.from(ws.alpha.subarray(r * k, r * k + k)));
  const path = Array.from(viterbi(params, read.obs).path);
  io.stdout.write(JSON.stringify({ loglik, filtered, viterbi: path }) + "\n");
  return 0;
}

/** `regime fit|score`: the HMM for quants (issue 6), inspectable and reproducible from a seed. */
export const regimeCommand: CliCommand = async (args, io) => {
  const [sub, ...rest] = args;
  if (sub === "fit") return fit(rest, io);
  if (sub === "score") return score(rest, io);
  return fail(io, regimeUsage);
};
