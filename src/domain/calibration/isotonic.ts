/** A pooled block of the isotonic fit: the weighted mean `value` over the items it covers. */
export interface IsotonicBlock {
  readonly first: number;
  readonly last: number;
  readonly weight: number;
  readonly value: number;
}

/**
 * Pool-adjacent-violators: the non-decreasing step function closest in weighted least squares
 * to `values` (in the given order). Returns the blocks left to right. O(n).
 */
export function isotonicIncreasing(values: readonly number[], weights: readonly number[]): IsotonicBlock[] {
  const blocks: { first: number; last: number; weight: number; sum: number }[] = [];
  for (let i = 0; i < values.length; i++) {
    const w = weights[i] as number;
    if (!(w > 0)) continue;
    blocks.push({ first: i, last: i, weight: w, sum: (values[i] as number) * w });
    while (blocks.length >= 2) {
      const b = blocks[blocks.length - 1] as (typeof blocks)[number];
      const a = blocks[blocks.length - 2] as (typeof blocks)[number];
      if (a.sum / a.weight <= b.sum / b.weight) break;
      blocks.splice(blocks.length - 2, 2, { first: a.first, last: b.last, weight: a.weight + b.weight, sum: a.sum + b.sum });
    }
  }
  return blocks.map((b) => ({ first: b.first, last: b.last, weight: b.weight, value: b.sum / b.weight }));
}
