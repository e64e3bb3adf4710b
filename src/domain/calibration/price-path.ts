import { resized } from "../columns/resized.js";

/** One closing price of an asset's hourly series: the close of the bar that ends at `t`. */
export interface PricePoint {
  /** ms since epoch, ascending. */
  readonly t: number;
  readonly close: number;
}

/**
 * An asset's hourly closes, ascending in time, as two typed columns. The evidence actors hold
 * the four assets' whole histories (~210,000 bars) for as long as the process lives; as
 * `{t, close}` objects they were the largest population the garbage collector marked on every
 * full collection (docs/decisions.md, "Long-lived evidence state is laid out for the garbage
 * collector"). A path never changes: it is a view of the first `length` entries of columns that
 * only a `PricePathBuilder` appends to, past every view's end.
 */
export class PricePath {
  /** @internal Use `PricePath.of` or a `PricePathBuilder`. */
  constructor(
    private readonly times: Float64Array,
    private readonly closes: Float64Array,
    readonly length: number,
  ) {}

  /** A path of the given points (ascending in `t`; throws otherwise). */
  static of(points: readonly PricePoint[]): PricePath {
    const builder = new PricePathBuilder(points.length);
    for (const p of points) builder.push(p.t, p.close);
    return builder.path();
  }

  timeAt(i: number): number {
    return this.times[i] as number;
  }

  closeAt(i: number): number {
    return this.closes[i] as number;
  }

  /** The close time of the last bar, or null when the path is empty. */
  lastTime(): number | null {
    return this.length === 0 ? null : this.timeAt(this.length - 1);
  }

  /** The bars closed at or before `t`: this path when none is later, else a shorter view (no copy). */
  upTo(t: number): PricePath {
    const n = indexAtOrBefore(this, t) + 1;
    return n === this.length ? this : new PricePath(this.times, this.closes, n);
  }

  /** The points as objects (for tests; the hot paths read the columns). */
  points(): PricePoint[] {
    const out: PricePoint[] = [];
    for (let i = 0; i < this.length; i++) out.push({ t: this.timeAt(i), close: this.closeAt(i) });
    return out;
  }
}

/**
 * Grows an asset's path bar by bar. Views handed out by `path()` keep reading what they saw:
 * appends write past their end, and growing the columns copies them into new ones.
 */
export class PricePathBuilder {
  #times: Float64Array;
  #closes: Float64Array;
  #length = 0;

  constructor(capacity = 1024) {
    this.#times = new Float64Array(Math.max(1, capacity));
    this.#closes = new Float64Array(Math.max(1, capacity));
  }

  get length(): number {
    return this.#length;
  }

  lastTime(): number | null {
    return this.#length === 0 ? null : (this.#times[this.#length - 1] as number);
  }

  /** Appends a bar closed after the last one (throws otherwise: a path is ascending). */
  push(t: number, close: number): void {
    const last = this.lastTime();
    if (last !== null && t <= last) throw new Error(`price path must ascend: ${t} after ${last}`);
    if (this.#length === this.#times.length) {
      this.#times = resized(this.#times, this.#times.length * 2);
      this.#closes = resized(this.#closes, this.#closes.length * 2);
    }
    this.#times[this.#length] = t;
    this.#closes[this.#length] = close;
    this.#length++;
  }

  /** The bars appended so far, as a path that later appends leave unchanged. */
  path(): PricePath {
    return new PricePath(this.#times, this.#closes, this.#length);
  }
}

/** Index of the last point at or before `t` (binary search), or -1 before the first. */
export function indexAtOrBefore(prices: PricePath, t: number): number {
  let lo = 0;
  let hi = prices.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (prices.timeAt(mid) <= t) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

/**
 * Simple return from `t` to `t + horizonMs`, or null when the horizon has not ended inside the
 * series (as of `knownAt`, the moment asking: an outcome is known only once it has matured) or
 * when either end has no price. The end price must be observed at or after the horizon's end
 * minus one bar, so a gap in the data never grades a stale price as an outcome.
 */
export function forwardReturn(prices: PricePath, t: number, horizonMs: number, knownAt = Number.POSITIVE_INFINITY): number | null {
  const end = t + horizonMs;
  const last = prices.lastTime();
  if (end > knownAt || last === null || end > last) return null;
  const i0 = indexAtOrBefore(prices, t);
  const i1 = indexAtOrBefore(prices, end);
  if (i0 < 0 || i1 < 0) return null;
  const c0 = prices.closeAt(i0);
  if (c0 <= 0 || t - prices.timeAt(i0) > 3_600_000 || end - prices.timeAt(i1) > 3_600_000) return null;
  return prices.closeAt(i1) / c0 - 1;
}
