import { CandleSeries } from "./candle-series.js";

/**
 * Aggregates bars into UTC-aligned buckets of `intervalMs` (4 h buckets start at 00, 04, … UTC,
 * as exchanges align them). A bucket with missing source bars (an exchange outage) is built from
 * the bars that exist: gaps are real and are never filled.
 */
export function aggregateCandles(source: CandleSeries, intervalMs: number): CandleSeries {
  const n = source.length;
  const t: number[] = [];
  const o: number[] = [];
  const h: number[] = [];
  const l: number[] = [];
  const c: number[] = [];
  const v: number[] = [];
  let bucket = Number.NaN;
  for (let i = 0; i < n; i++) {
    const bt = source.t[i] as number;
    const b = bt - (bt % intervalMs);
    if (b !== bucket) {
      bucket = b;
      t.push(b);
      o.push(source.o[i] as number);
      h.push(source.h[i] as number);
      l.push(source.l[i] as number);
      c.push(source.c[i] as number);
      v.push(source.v[i] as number);
    } else {
      const k = t.length - 1;
      h[k] = Math.max(h[k] as number, source.h[i] as number);
      l[k] = Math.min(l[k] as number, source.l[i] as number);
      c[k] = source.c[i] as number;
      v[k] = (v[k] as number) + (source.v[i] as number);
    }
  }
  const f = Float64Array.from.bind(Float64Array);
  return new CandleSeries(intervalMs, f(t), f(o), f(h), f(l), f(c), f(v));
}

/** `head` up to its end, then the bars of `tail` that open after it (a venue splice, labelled by the caller). */
export function appendAfter(head: CandleSeries, tail: CandleSeries): CandleSeries {
  const lastHead = head.length > 0 ? (head.t[head.length - 1] as number) : Number.NEGATIVE_INFINITY;
  let start = 0;
  while (start < tail.length && (tail.t[start] as number) <= lastHead) start++;
  const join = (a: Float64Array, b: Float64Array) => {
    const out = new Float64Array(a.length + b.length - start);
    out.set(a, 0);
    out.set(b.subarray(start), a.length);
    return out;
  };
  return new CandleSeries(
    head.intervalMs,
    join(head.t, tail.t),
    join(head.o, tail.o),
    join(head.h, tail.h),
    join(head.l, tail.l),
    join(head.c, tail.c),
    join(head.v, tail.v),
  );
}
