import { RollingStats } from "./rolling-stats.js";

const HOURS_PER_YEAR = 24 * 365;

/**
 * Annualized realized volatility in percent from hourly closes: population stdev of the last
 * `window` hourly log returns × √(8760) × 100. The 720-hour default matches DVOL's 30-day horizon
 * so realized and implied volatility can be compared directly.
 */
export class RealizedVolatility {
  private readonly returns: RollingStats;
  private previousClose: number | null = null;
  private result: number | null = null;

  constructor(
    readonly window = 720,
    private readonly periodsPerYear = HOURS_PER_YEAR,
  ) {
    this.returns = new RollingStats(window);
  }

  update(close: number): number | null {
    if (this.previousClose !== null && this.previousClose > 0 && close > 0) {
      this.returns.push(Math.log(close / this.previousClose));
      if (this.returns.isFull) this.result = this.returns.stdev() * Math.sqrt(this.periodsPerYear) * 100;
    }
    this.previousClose = close;
    return this.result;
  }

  getResult(): number | null {
    return this.result;
  }
}
