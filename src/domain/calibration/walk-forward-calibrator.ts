import type { TaoRuling } from "../market/vocabulary.js";
import { calibratedConfidence, DEFAULT_CALIBRATION, fitCalibrationMap, probabilityUp, type CalibrationKind, type CalibrationMap, type CalibrationSettings } from "./calibration-map.js";
import { forwardReturn, type PricePath } from "./price-path.js";
import { MaturedWindow } from "./matured-window.js";
import { ScoreHistogram } from "./score-histogram.js";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** One hourly ruling of a stream before calibration: what the engine said at a bar close. */
export interface ScoredHour {
  readonly at: number;
  readonly ruling: TaoRuling;
  readonly score: number;
}

/** The same ruling as published: with the probability the map in force at `at` gave it. */
export interface CalibratedHour extends ScoredHour {
  readonly confidence: number;
  readonly pUp: number;
  readonly calibration: CalibrationKind;
  /** The window's raw share of up-moves: the no-skill forecast known at the time. */
  readonly baseRate: number;
}

/** Start of the UTC day containing `t`: maps are refitted once a market day, at 00:00 UTC. */
export function refitTime(t: number): number {
  return Math.floor(t / DAY) * DAY;
}

/**
 * Walk-forward calibration of one ruling stream. Rows arrive in time order; the map in force
 * for a row at `t` was fitted at the start of t's UTC day on the outcomes that had matured by
 * then (ruling time + horizon ≤ fit time, the end price read no later than the fit time), over
 * the trailing window. Nothing after the fit time is ever read, so a row's confidence does not
 * change when later data is added or removed.
 */
export class WalkForwardCalibrator {
  private readonly histogram = new ScoreHistogram();
  /** Rows whose outcome is not known yet at the current fit time, oldest first. */
  private pending: ScoredHour[] = [];
  /** Matured rows inside the window, oldest first, with their outcome. */
  private readonly window = new MaturedWindow();
  private current: CalibrationMap | null = null;
  /** The map in force before `current`: a turn begun before midnight may still ask for its day. */
  private previous: CalibrationMap | null = null;
  private lastSeen = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly stream: string,
    private prices: PricePath,
    private readonly settings: CalibrationSettings = DEFAULT_CALIBRATION,
  ) {}

  /**
   * A longer price series as time goes on (live or replay). Safe by construction: outcomes are
   * read only up to each fit time, so extending the series never changes an earlier map.
   */
  setPrices(prices: PricePath): void {
    this.prices = prices;
  }

  get horizonMs(): number {
    return this.settings.horizonHours * HOUR;
  }

  /**
   * The map in force at `t`: fitted at the start of t's UTC day once the close at that time is
   * known. Until it is (live, the bar reaches the feed a minute or two after midnight; in the
   * history, an exchange outage across midnight) the map fitted before stays in force: fitting
   * early would grade the outcomes ending at midnight as missing, for good, where an actor that
   * fits later (restarted, or on another replica) grades them. Rows are calibrated only at known
   * closes, so this never holds for them. `t` goes back at most to the day before the newest fit
   * (a turn that began before midnight); further back throws.
   */
  mapAt(t: number): CalibrationMap {
    const fitAt = refitTime(t);
    if (this.current !== null && this.current.fittedAt === fitAt) return this.current;
    if (this.current !== null && fitAt < this.current.fittedAt) {
      // The map in force then: the one before the newest (fitted that day or, deferred, earlier).
      if (this.previous !== null && this.previous.fittedAt <= fitAt) return this.previous;
      throw new Error(`calibration of ${this.stream} cannot go back in time`);
    }
    const known = this.prices.lastTime();
    if (known === null || known < fitAt) {
      if (this.current !== null) return this.current;
      // No map yet (an actor activated between midnight and the close at midnight reaching the
      // feed): the one an actor that had kept running has in force, of the newest known close's day.
      if (known !== null) return this.fit(refitTime(known));
    }
    return this.fit(fitAt);
  }

  private fit(fitAt: number): CalibrationMap {
    this.mature(fitAt);
    this.previous = this.current;
    this.current = fitCalibrationMap(this.stream, this.histogram, fitAt, this.settings);
    return this.current;
  }

  /** Records a row whose outcome will count once it matures. Rows must come in time order. */
  observe(row: ScoredHour): void {
    if (row.at <= this.lastSeen) return;
    this.lastSeen = row.at;
    this.pending.push(row);
  }

  /** Calibrates `row` with the map in force at its time, then records it. */
  calibrate(row: ScoredHour): CalibratedHour {
    const map = this.mapAt(row.at);
    this.observe(row);
    // One literal of fixed shape, not a spread of `row` plus four fields: the spread gave every
    // row a hidden class, descriptors and property store of its own (~350 bytes and three more
    // objects a row for the garbage collector to mark, over ~100,000 rows the service holds).
    return {
      at: row.at,
      ruling: row.ruling,
      score: row.score,
      confidence: calibratedConfidence(map, row.ruling, row.score),
      pUp: probabilityUp(map, row.score),
      calibration: map.kind,
      baseRate: map.upShare ?? 0.5,
    };
  }

  private mature(fitAt: number): void {
    const horizon = this.horizonMs;
    let k = 0;
    for (; k < this.pending.length; k++) {
      const row = this.pending[k] as ScoredHour;
      if (row.at + horizon > fitAt) break;
      const r = forwardReturn(this.prices, row.at, horizon, fitAt);
      if (r === null || r === 0) continue; // no outcome (a gap in the data) or an exactly flat one: ungraded
      const up = r > 0;
      this.window.push(row.at, row.score, up);
      this.histogram.add(row.score, up);
    }
    if (k > 0) this.pending = this.pending.slice(k);
    this.window.dropBefore(fitAt - this.settings.windowDays * DAY, (score, up) => this.histogram.remove(score, up));
  }
}
