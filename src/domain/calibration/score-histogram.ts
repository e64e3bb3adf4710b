const LOW = -100;
const HIGH = 100;
const BINS = HIGH - LOW + 1;

/** Outcomes of a score bin: how many matured, and how many of them ended up. */
export interface ScoreBin {
  readonly score: number;
  readonly n: number;
  readonly up: number;
}

/**
 * Matured outcomes counted per whole score point in [-100, 100]: the sufficient statistics of
 * a calibration fit, so a sliding window adds and removes outcomes in O(1) and a refit costs
 * 201 bins whatever the window's length.
 */
export class ScoreHistogram {
  private readonly n = new Float64Array(BINS);
  private readonly up = new Float64Array(BINS);
  private count = 0;
  private ups = 0;

  private index(score: number): number {
    return Math.min(HIGH, Math.max(LOW, Math.round(score))) - LOW;
  }

  add(score: number, wentUp: boolean, sign: 1 | -1 = 1): void {
    const i = this.index(score);
    this.n[i] = (this.n[i] as number) + sign;
    this.count += sign;
    if (wentUp) {
      this.up[i] = (this.up[i] as number) + sign;
      this.ups += sign;
    }
  }

  remove(score: number, wentUp: boolean): void {
    this.add(score, wentUp, -1);
  }

  total(): number {
    return this.count;
  }

  totalUp(): number {
    return this.ups;
  }

  *bins(): Iterable<ScoreBin> {
    for (let i = 0; i < BINS; i++) yield { score: i + LOW, n: this.n[i] as number, up: this.up[i] as number };
  }
}
