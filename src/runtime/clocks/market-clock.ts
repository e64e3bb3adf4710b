import type { Clock } from "./clock.js";

/**
 * Market time. Live: the wall clock. Replay: starts at a market instant and, once set running,
 * advances `speed` market seconds per wall second; before that (warm-up) it moves only when the
 * scheduler fast-forwards it. It never runs past the end of the data: there the replay stops
 * and signals age into STALE and DEAD (DECISIONS 1).
 */
export interface MarketClock extends Clock {
  readonly mode: "live" | "replay";
  /** True while the warm-up fast-forward owns the clock. */
  readonly warmingUp: boolean;
  /** While warming up, the market instant the fast-forward ends at; null once market time runs. */
  readonly warmUpEndsAt: number | null;
}

export class LiveMarketClock implements MarketClock {
  readonly mode = "live" as const;
  readonly warmingUp = false;
  readonly warmUpEndsAt = null;
  constructor(private readonly wall: Clock) {}
  now(): number {
    return this.wall.now();
  }
}

export class ReplayMarketClock implements MarketClock {
  readonly mode = "replay" as const;
  private position: number;
  /** Wall time when the clock was set running; null while warming up. */
  private runningSince: { wall: number; market: number } | null = null;

  constructor(
    private readonly wall: Clock,
    start: number,
    private speed: number,
    /** Market time of the last data point; the clock stops there. */
    readonly end: number,
    /** Where the warm-up fast-forward ends (REPLAY_START); a clock without a warm-up ends it where it starts. */
    private readonly warmUpUntil: number = start,
  ) {
    this.position = Math.min(start, end);
  }

  /** Market seconds per wall second while running. */
  get rate(): number {
    return this.speed;
  }

  get warmingUp(): boolean {
    return this.runningSince === null;
  }

  /** REPLAY_START, or where a resumed recording stands when that is later; null once running. */
  get warmUpEndsAt(): number | null {
    if (this.runningSince) return null;
    return Math.min(this.end, Math.max(this.warmUpUntil, this.position));
  }

  now(): number {
    if (!this.runningSince) return this.position;
    const elapsed = this.wall.now() - this.runningSince.wall;
    return Math.min(this.end, this.runningSince.market + Math.max(0, elapsed) * this.speed);
  }

  /** Fast-forwards during warm-up; never goes backwards, never past the end. */
  advanceTo(market: number): void {
    if (this.runningSince) throw new Error("the replay clock is already running");
    this.position = Math.min(this.end, Math.max(this.position, market));
  }

  /** Ends the warm-up: from now on market time follows the wall clock at `speed`. */
  run(): void {
    if (!this.runningSince) this.runningSince = { wall: this.wall.now(), market: this.position };
  }

  /**
   * Ends the warm-up on a shared anchor (the cluster's one clock, issue 17): market time is
   * `marketAt` at wall time `wallAt` and runs at the anchor's speed, on every replica alike.
   */
  runFrom(anchor: { readonly wallAt: number; readonly marketAt: number; readonly speed: number }): void {
    if (this.runningSince) throw new Error("the replay clock is already running");
    this.speed = anchor.speed;
    this.runningSince = { wall: anchor.wallAt, market: anchor.marketAt };
  }
}
