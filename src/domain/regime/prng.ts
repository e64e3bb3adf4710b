/**
 * A small seeded generator (mulberry32) so model initialisation and synthetic samples are
 * reproducible bit for bit across machines: a quant re-running `regime fit --seed S` gets the
 * same model. Math.random cannot be seeded.
 */
export class SeededRandom {
  private state: number;
  private spareNormal: number | null = null;

  constructor(seed: number) {
    // Mix the seed so nearby seeds (restart r and r+1) give unrelated streams.
    this.state = (Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b) ^ 0x6d2b79f5) >>> 0;
  }

  /** Uniform in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let z = this.state;
    z = Math.imul(z ^ (z >>> 15), z | 1);
    z ^= z + Math.imul(z ^ (z >>> 7), z | 61);
    return ((z ^ (z >>> 14)) >>> 0) / 4294967296;
  }

  /** Integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  /** Standard normal (Box–Muller, caching the second value). */
  normal(): number {
    if (this.spareNormal !== null) {
      const s = this.spareNormal;
      this.spareNormal = null;
      return s;
    }
    let u = 0;
    while (u === 0) u = this.next();
    const v = this.next();
    const r = Math.sqrt(-2 * Math.log(u));
    this.spareNormal = r * Math.sin(2 * Math.PI * v);
    return r * Math.cos(2 * Math.PI * v);
  }

  /** Index drawn from the distribution p[from .. from+n). */
  categorical(p: Float64Array, from: number, n: number): number {
    let u = this.next();
    for (let i = 0; i < n - 1; i++) {
      u -= p[from + i] as number;
      if (u < 0) return i;
    }
    return n - 1;
  }
}
