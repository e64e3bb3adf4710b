import { TAO_RULINGS, type TaoRuling } from "../market/vocabulary.js";
import { resized } from "../columns/resized.js";
import type { EvaluatedHour } from "./verdict-evaluation.js";
import type { Steps } from "./steps.js";

/** Rows rebuilt as objects per step (a few allocations each). */
const ROWS_PER_STEP = 4_000;

/**
 * Published rows with the returns that followed them, in typed columns: what an evidence actor
 * keeps between evaluations so the next one regrades only the rows still open.
 *
 * Why columns: the four actors hold ~100,000 graded rows for the process's life. As objects,
 * each was a row, its forward returns and about six boxed numbers, some 800,000 things the
 * garbage collector marked on every full collection while requests waited (docs/decisions.md,
 * "Long-lived evidence state is laid out for the garbage collector"). Rows are rebuilt as
 * objects, one shape, when an evaluation reads them. A return not known yet is NaN in its column:
 * a real return is a ratio of two positive closes, never NaN.
 */
export class GradedHours {
  #length = 0;
  #at: Float64Array;
  #ruling: Uint8Array;
  #score: Float64Array;
  #confidence: Float64Array;
  #baseRate: Float64Array;
  #h4: Float64Array;
  #h24: Float64Array;
  #h72: Float64Array;

  constructor(capacity = 0) {
    const n = Math.max(1, capacity);
    this.#at = new Float64Array(n);
    this.#ruling = new Uint8Array(n);
    this.#score = new Float64Array(n);
    this.#confidence = new Float64Array(n);
    this.#baseRate = new Float64Array(n);
    this.#h4 = new Float64Array(n);
    this.#h24 = new Float64Array(n);
    this.#h72 = new Float64Array(n);
  }

  get length(): number {
    return this.#length;
  }

  /** The time of the last row, or null when there is none. */
  lastAt(): number | null {
    return this.#length === 0 ? null : (this.#at[this.#length - 1] as number);
  }

  /** The publication time of row `i`. */
  at(i: number): number {
    return this.#at[i] as number;
  }

  /** True when every horizon of row `i` has an outcome: later knowledge cannot change it. */
  settled(i: number): boolean {
    return !Number.isNaN(this.#h4[i]) && !Number.isNaN(this.#h24[i]) && !Number.isNaN(this.#h72[i]);
  }

  /** Appends a row (after the last one; throws otherwise: rows are in publication order). */
  push(row: EvaluatedHour): void {
    const ruling = TAO_RULINGS.indexOf(row.ruling);
    if (ruling < 0) throw new Error(`unknown ruling ${String(row.ruling)}`);
    const i = this.#slotFor(row.at);
    this.#ruling[i] = ruling;
    this.#score[i] = row.score;
    this.#confidence[i] = row.confidence;
    this.#baseRate[i] = row.baseRate;
    this.#h4[i] = row.forward.h4 ?? Number.NaN;
    this.#h24[i] = row.forward.h24 ?? Number.NaN;
    this.#h72[i] = row.forward.h72 ?? Number.NaN;
  }

  /** Appends row `i` of `other` as it is (a settled row carried into a newer result). */
  pushFrom(other: GradedHours, i: number): void {
    const j = this.#slotFor(other.#at[i] as number);
    this.#ruling[j] = other.#ruling[i] as number;
    this.#score[j] = other.#score[i] as number;
    this.#confidence[j] = other.#confidence[i] as number;
    this.#baseRate[j] = other.#baseRate[i] as number;
    this.#h4[j] = other.#h4[i] as number;
    this.#h24[j] = other.#h24[i] as number;
    this.#h72[j] = other.#h72[i] as number;
  }

  /** The index of a new last row at `at`, its time written (throws when `at` is not after the last). */
  #slotFor(at: number): number {
    const last = this.lastAt();
    if (last !== null && at <= last) throw new Error(`graded rows must ascend: ${at} after ${last}`);
    if (this.#length === this.#at.length) this.#grow();
    const i = this.#length++;
    this.#at[i] = at;
    return i;
  }

  /** Row `i` as an object (one literal: every row shares one shape). */
  row(i: number): EvaluatedHour {
    return {
      at: this.#at[i] as number,
      ruling: TAO_RULINGS[this.#ruling[i] as number] as TaoRuling,
      score: this.#score[i] as number,
      confidence: this.#confidence[i] as number,
      baseRate: this.#baseRate[i] as number,
      forward: { h4: known(this.#h4[i] as number), h24: known(this.#h24[i] as number), h72: known(this.#h72[i] as number) },
    };
  }

  /** Every row as objects, in steps (see steps.ts): ~29,000 rows take a few milliseconds. */
  *rowsSteps(): Steps<EvaluatedHour[]> {
    const out: EvaluatedHour[] = [];
    for (let i = 0; i < this.#length; i++) {
      out.push(this.row(i));
      if ((i + 1) % ROWS_PER_STEP === 0) yield;
    }
    return out;
  }

  #grow(): void {
    const n = this.#at.length * 2;
    this.#at = resized(this.#at, n);
    this.#ruling = resized(this.#ruling, n);
    this.#score = resized(this.#score, n);
    this.#confidence = resized(this.#confidence, n);
    this.#baseRate = resized(this.#baseRate, n);
    this.#h4 = resized(this.#h4, n);
    this.#h24 = resized(this.#h24, n);
    this.#h72 = resized(this.#h72, n);
  }
}

function known(x: number): number | null {
  return Number.isNaN(x) ? null : x;
}
