/**
 * Mean and population standard deviation over the last `size` values, updated in O(1) per value
 * with running sums over a ring buffer, so a long window (720 h) costs nothing per new bar.
 */
export class RollingStats {
  private readonly buffer: Float64Array;
  private next = 0;
  private count = 0;
  private sum = 0;
  private sumSq = 0;
  private sinceResum = 0;

  constructor(readonly size: number) {
    if (!Number.isInteger(size) || size < 2) throw new RangeError(`window size must be an integer ≥ 2, got ${size}`);
    this.buffer = new Float64Array(size);
  }

  push(value: number): void {
    if (this.count === this.size) {
      const old = this.buffer[this.next] ?? 0;
      this.sum -= old;
      this.sumSq -= old * old;
    } else {
      this.count++;
    }
    this.buffer[this.next] = value;
    this.sum += value;
    this.sumSq += value * value;
    this.next = (this.next + 1) % this.size;
    // Subtracting old values accumulates rounding error over a long replay; re-sum now and then.
    if (++this.sinceResum >= 50 * this.size) this.resum();
  }

  get isFull(): boolean {
    return this.count === this.size;
  }

  mean(): number {
    return this.count === 0 ? 0 : this.sum / this.count;
  }

  /** Population standard deviation (as trading-signals' getStandardDeviation). */
  stdev(): number {
    if (this.count === 0) return 0;
    const m = this.sum / this.count;
    return Math.sqrt(Math.max(0, this.sumSq / this.count - m * m));
  }

  private resum(): void {
    this.sinceResum = 0;
    let s = 0;
    let s2 = 0;
    for (let i = 0; i < this.count; i++) {
      const v = this.buffer[i] ?? 0;
      s += v;
      s2 += v * v;
    }
    this.sum = s;
    this.sumSq = s2;
  }
}
