/**
 * Formulas of the derived signals (docs catalogue table), on plain arrays so the replay feed
 * and the live providers compute them the same way. Each returns one value per input row,
 * NaN where the window is not yet filled.
 */

const DAY = 86_400_000;

/** NUPL = 1 − 1/MVRV (DECISIONS 7). */
export function nupl(mvrv: Float64Array): Float64Array {
  return mvrv.map((m) => (m > 0 ? 1 - 1 / m : Number.NaN));
}

/**
 * MVRV Z-score = (market cap − realized cap) / stdev(market cap over all history to that day),
 * realized cap = market cap / MVRV. The stdev expands day by day (no look-ahead); the first
 * `minHistory` rows are NaN because a stdev of a few days is meaningless.
 */
export function mvrvZScore(marketCap: Float64Array, mvrv: Float64Array, minHistory = 365): Float64Array {
  const out = new Float64Array(marketCap.length).fill(Number.NaN);
  let n = 0;
  let mean = 0;
  let m2 = 0;
  for (let i = 0; i < marketCap.length; i++) {
    const x = marketCap[i] as number;
    // Welford's update: market caps reach 1e12, where sum-of-squares loses precision.
    n++;
    const d = x - mean;
    mean += d / n;
    m2 += d * (x - mean);
    const m = mvrv[i] as number;
    if (n >= minHistory && m > 0) {
      const sd = Math.sqrt(m2 / n);
      if (sd > 0) out[i] = (x - x / m) / sd;
    }
  }
  return out;
}

/**
 * Hash ribbon = mean daily hash rate over the last 30 days ÷ over the last 60; < 1 marks miner
 * capitulation. The windows are calendar days, (t − days, t], not rows: a source that misses
 * days (the bundled file lacks 2025-11-13…15) averaged 33 and 63 days as "30" and "60", which
 * moved the ratio by up to 0.014 and put it on the other side of 1 on five days. NaN until the
 * history spans the slow window, and where a window holds fewer than half its days.
 */
export function hashRibbon(time: Float64Array, hashRate: Float64Array, fast = 30, slow = 60): Float64Array {
  const f = trailingMean(time, hashRate, fast);
  const s = trailingMean(time, hashRate, slow);
  const first = time[0] as number;
  return f.map((a, i) => {
    const b = s[i] as number;
    const spansSlow = (time[i] as number) - first >= (slow - 1) * DAY;
    return spansSlow && b > 0 ? a / b : Number.NaN;
  });
}

/**
 * Mean of the rows dated in (t − days, t]; NaN where fewer than half of those days have a row
 * (a mean of a few days is not a `days`-day mean).
 */
export function trailingMean(time: Float64Array, values: Float64Array, days: number): Float64Array {
  return overTrailingDays(time, values, days, (sum, rows) => (2 * rows >= days ? sum / rows : Number.NaN));
}

/** Sum of the rows dated in (t − days, t] (e.g. 7-day ETF net flow). */
export function trailingSum(time: Float64Array, values: Float64Array, days: number): Float64Array {
  return overTrailingDays(time, values, days, (sum) => sum);
}

/** `of(sum, rows)` of the rows dated in (t − days, t], for each row's t; one pass. */
function overTrailingDays(time: Float64Array, values: Float64Array, days: number, of: (sum: number, rows: number) => number): Float64Array {
  const out = new Float64Array(time.length);
  let start = 0;
  let sum = 0;
  for (let i = 0; i < time.length; i++) {
    sum += values[i] as number;
    while ((time[start] as number) <= (time[i] as number) - days * DAY) sum -= values[start++] as number;
    out[i] = of(sum, i - start + 1);
  }
  return out;
}

/** Change against the row dated exactly `days` earlier; NaN when that day is missing. */
export function changeOverDays(time: Float64Array, values: Float64Array, days: number, scale = 1): Float64Array {
  const out = new Float64Array(time.length).fill(Number.NaN);
  let j = 0;
  for (let i = 0; i < time.length; i++) {
    const target = (time[i] as number) - days * DAY;
    while (j < i && (time[j] as number) < target) j++;
    if ((time[j] as number) === target) out[i] = ((values[i] as number) - (values[j] as number)) * scale;
  }
  return out;
}

/** Percent change against the row dated exactly `days` earlier (e.g. 7-day TVL trend). */
export function pctChangeOverDays(time: Float64Array, values: Float64Array, days: number): Float64Array {
  const out = new Float64Array(time.length).fill(Number.NaN);
  let j = 0;
  for (let i = 0; i < time.length; i++) {
    const target = (time[i] as number) - days * DAY;
    while (j < i && (time[j] as number) < target) j++;
    const base = values[j] as number;
    if ((time[j] as number) === target && base !== 0) out[i] = ((values[i] as number) / base - 1) * 100;
  }
  return out;
}

/** Pearson correlation of two equal-length samples, in [−1, 1]; NaN when either has no variance. */
export function pearson(a: ArrayLike<number>, b: ArrayLike<number>): number {
  const n = a.length;
  if (n < 2 || b.length !== n) return Number.NaN;
  let ma = 0;
  let mb = 0;
  for (let i = 0; i < n; i++) {
    ma += a[i] as number;
    mb += b[i] as number;
  }
  ma /= n;
  mb /= n;
  let cov = 0;
  let va = 0;
  let vb = 0;
  for (let i = 0; i < n; i++) {
    const da = (a[i] as number) - ma;
    const db = (b[i] as number) - mb;
    cov += da * db;
    va += da * da;
    vb += db * db;
  }
  // Rounding can step an exactly linear pair past ±1 by an ulp; a correlation outside [−1, 1] means nothing.
  return va > 0 && vb > 0 ? Math.max(-1, Math.min(1, cov / Math.sqrt(va * vb))) : Number.NaN;
}

/**
 * Rolling Pearson correlation of daily returns of series A with BTC, over the last `window`
 * paired returns. Pairs are taken on A's dates (a US series has trading days only); BTC's return
 * spans the same two dates. `btcCloseOn(dayStartMs)` gives BTC's close of that UTC day or NaN.
 */
export function rollingReturnCorrelation(
  time: Float64Array,
  values: Float64Array,
  btcCloseOn: (dayStartMs: number) => number,
  window = 30,
): Float64Array {
  const out = new Float64Array(time.length).fill(Number.NaN);
  const ra: number[] = [];
  const rb: number[] = [];
  for (let i = 1; i < time.length; i++) {
    const a0 = values[i - 1] as number;
    const b0 = btcCloseOn(time[i - 1] as number);
    const b1 = btcCloseOn(time[i] as number);
    if (a0 === 0 || !Number.isFinite(b0) || !Number.isFinite(b1) || b0 === 0) continue;
    ra.push((values[i] as number) / a0 - 1);
    rb.push(b1 / b0 - 1);
    if (ra.length > window) {
      ra.shift();
      rb.shift();
    }
    if (ra.length === window) out[i] = pearson(ra, rb);
  }
  return out;
}
