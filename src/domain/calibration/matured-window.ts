import { resized } from "../columns/resized.js";

/**
 * The matured outcomes inside a calibrator's trailing window, oldest first, as three typed
 * columns instead of one object per outcome.
 *
 * Why columns: a year's window is ~8,800 outcomes per stream, and the service holds a calibrator
 * per ruling stream and council agent (~195,000 outcomes). As objects, each outcome was an object
 * and two boxed numbers, ~600,000 things the garbage collector marks on every full collection of
 * a process that also serves requests; typed arrays are a handful of objects it does not look into.
 */
export class MaturedWindow {
  #at = new Float64Array(1024);
  #score = new Float64Array(1024);
  #up = new Uint8Array(1024);
  /** Index of the oldest outcome still inside the window. */
  #start = 0;
  /** Index one past the newest outcome. */
  #end = 0;

  get size(): number {
    return this.#end - this.#start;
  }

  push(at: number, score: number, up: boolean): void {
    if (this.#end === this.#at.length) this.#makeRoom();
    this.#at[this.#end] = at;
    this.#score[this.#end] = score;
    this.#up[this.#end] = up ? 1 : 0;
    this.#end++;
  }

  /** Removes the outcomes older than `from`, oldest first, handing each to `evict`. */
  dropBefore(from: number, evict: (score: number, up: boolean) => void): void {
    while (this.#start < this.#end && (this.#at[this.#start] as number) < from) {
      evict(this.#score[this.#start] as number, this.#up[this.#start] === 1);
      this.#start++;
    }
  }

  /** Moves the live outcomes to the front, growing the columns only when they are over half full. */
  #makeRoom(): void {
    const live = this.size;
    const capacity = live * 2 > this.#at.length ? this.#at.length * 2 : this.#at.length;
    this.#at = resized(this.#at.subarray(this.#start, this.#end), capacity);
    this.#score = resized(this.#score.subarray(this.#start, this.#end), capacity);
    this.#up = resized(this.#up.subarray(this.#start, this.#end), capacity);
    this.#start = 0;
    this.#end = live;
  }
}
