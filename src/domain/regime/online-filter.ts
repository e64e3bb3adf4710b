import type { HmmParams } from "./hmm-params.js";
import { emissionConstants, logEmissionRow, type EmissionConstants } from "./log-emissions.js";

/**
 * The posterior of the newest bar, updated bar by bar in O(k² + k·d) with no allocation: the
 * hourly path between refits. Gives exactly the rows of the batch forward pass (filtered), so
 * a regime reported live is the one a replay of the same bars reports.
 */
export class OnlineFilter {
  private readonly constants: EmissionConstants;
  private readonly posterior: Float64Array;
  private readonly logB: Float64Array;
  private readonly predicted: Float64Array;
  private started = false;
  private loglik = 0;

  constructor(private readonly params: HmmParams) {
    this.constants = emissionConstants(params);
    this.posterior = new Float64Array(params.k);
    this.logB = new Float64Array(params.k);
    this.predicted = new Float64Array(params.k);
  }

  /** P(state | bars so far); a view that the next `step` overwrites. */
  get probabilities(): Float64Array {
    return this.posterior;
  }

  /** log P(x_1..t) of the bars seen so far. */
  get logLikelihood(): number {
    return this.loglik;
  }

  get hasObservations(): boolean {
    return this.started;
  }

  /** Folds in one observation (d features at x[offset..]) and returns the new posterior. */
  step(x: ArrayLike<number>, offset = 0): Float64Array {
    const { k, transMat, startProb } = this.params;
    const post = this.posterior;
    const pred = this.predicted;
    const logB = this.logB;
    logEmissionRow(this.params, this.constants, x, offset, logB, 0);
    let m = -Infinity;
    for (let s = 0; s < k; s++) if ((logB[s] as number) > m) m = logB[s] as number;
    if (m === -Infinity) m = 0;
    if (this.started) {
      for (let j = 0; j < k; j++) {
        let acc = 0;
        for (let i = 0; i < k; i++) acc += (post[i] as number) * (transMat[i * k + j] as number);
        pred[j] = acc;
      }
    } else {
      for (let s = 0; s < k; s++) pred[s] = startProb[s] as number;
    }
    let c = 0;
    for (let s = 0; s < k; s++) {
      const v = (pred[s] as number) * Math.exp((logB[s] as number) - m);
      post[s] = v;
      c += v;
    }
    if (c > 0) {
      const inv = 1 / c;
      for (let s = 0; s < k; s++) post[s] = (post[s] as number) * inv;
      this.loglik += Math.log(c) + m;
    } else {
      // Impossible under the model (a zero-probability path): keep the prediction rather than
      // emit NaN, and record the impossibility in the likelihood.
      for (let s = 0; s < k; s++) post[s] = pred[s] as number;
      this.loglik = -Infinity;
    }
    this.started = true;
    return post;
  }

  /** The index of the most probable state now (lowest index on ties). */
  mostProbableState(): number {
    let best = 0;
    for (let s = 1; s < this.params.k; s++) if ((this.posterior[s] as number) > (this.posterior[best] as number)) best = s;
    return best;
  }
}
