import type { ScoredHour } from "../domain/calibration/walk-forward-calibrator.js";
import type { TaoRuling } from "../domain/market/vocabulary.js";
import { resized } from "../domain/columns/resized.js";

const HOUR = 3_600_000;

/** One agent's rule vote in a council hour. */
export type AgentScoredHour = ScoredHour & { readonly agent: string };

/** A scored hour as memoised: a verdict's, or a council's with its agents' votes. */
export type MemoHour = ScoredHour & { readonly agents?: readonly AgentScoredHour[] };

const UNSET = 0;
const BLANK = 1;
const SCORED = 2;

interface Column {
  /** 0: no value; else 1 + the ruling's index in `rulings`. */
  ruling: Uint8Array;
  score: Float64Array;
}

/**
 * The scored hours of one replay stream, by hour, in typed columns: what `memoised` keeps so a
 * second activation does not recompute them.
 *
 * Why columns: the service's replay memo holds ~275,000 scored hours and agent votes. As
 * objects, each was an object and a boxed number or two, about 800,000 things the garbage
 * collector marked on every full collection while requests waited; typed arrays are a few
 * objects it does not look into. Hours are rebuilt as objects when read.
 *
 * Hours are indexed from the first one stored; an hour before it, or off the hour, is simply
 * not memoised (the caller computes it again), which keeps the columns one contiguous range.
 */
export class ScoredHourMemo {
  #base: number | null = null;
  #capacity = 0;
  #state = new Uint8Array(0);
  #hour: Column = { ruling: new Uint8Array(0), score: new Float64Array(0) };
  /**
   * The agents, in the order every hour's votes come in (the council's roster): an hour's votes
   * are rebuilt in this order, and an agent outside it goes after the roster, in order of sight.
   */
  readonly #agents: string[];
  readonly #agentColumns = new Map<string, Column>();
  #council = false;
  readonly #rulings: TaoRuling[] = [];

  constructor(roster: readonly string[] = []) {
    this.#agents = [...roster];
  }

  get(at: number): MemoHour | null | undefined {
    const i = this.#index(at);
    if (i === null || i >= this.#capacity || this.#state[i] === UNSET) return undefined;
    if (this.#state[i] === BLANK) return null;
    const ruling = this.#rulingAt(this.#hour, i) as TaoRuling;
    const score = this.#hour.score[i] as number;
    if (!this.#council) return { at, ruling, score };
    const agents: AgentScoredHour[] = [];
    for (const agent of this.#agents) {
      const column = this.#agentColumns.get(agent);
      const vote = column === undefined ? null : this.#rulingAt(column, i);
      if (vote !== null) agents.push({ agent, at, ruling: vote, score: (column as Column).score[i] as number });
    }
    return { at, ruling, score, agents };
  }

  set(at: number, hour: MemoHour | null): void {
    if (this.#base === null) this.#base = at;
    const i = this.#index(at);
    if (i === null) return;
    if (i >= this.#capacity) this.#grow(Math.max(this.#capacity * 2, i + 1, 1024));
    if (hour === null) {
      this.#state[i] = BLANK;
      return;
    }
    this.#hour.ruling[i] = this.#code(hour.ruling);
    this.#hour.score[i] = hour.score;
    if (hour.agents !== undefined) {
      this.#council = true;
      hour.agents.forEach((vote) => {
        const column = this.#agentColumn(vote.agent);
        column.ruling[i] = this.#code(vote.ruling);
        column.score[i] = vote.score;
      });
    }
    this.#state[i] = SCORED;
  }

  #index(at: number): number | null {
    if (this.#base === null) return null;
    const i = (at - this.#base) / HOUR;
    return Number.isInteger(i) && i >= 0 ? i : null;
  }

  #rulingAt(column: Column, i: number): TaoRuling | null {
    const code = column.ruling[i] as number;
    return code === 0 ? null : (this.#rulings[code - 1] as TaoRuling);
  }

  #code(ruling: TaoRuling): number {
    let k = this.#rulings.indexOf(ruling);
    if (k < 0) k = this.#rulings.push(ruling) - 1;
    return k + 1;
  }

  /** The agent's column, created on its first vote. */
  #agentColumn(agent: string): Column {
    const known = this.#agentColumns.get(agent);
    if (known !== undefined) return known;
    if (!this.#agents.includes(agent)) this.#agents.push(agent);
    const column = { ruling: new Uint8Array(this.#capacity), score: new Float64Array(this.#capacity) };
    this.#agentColumns.set(agent, column);
    return column;
  }

  #grow(capacity: number): void {
    const grown = (c: Column): Column => ({ ruling: resized(c.ruling, capacity), score: resized(c.score, capacity) });
    this.#state = resized(this.#state, capacity);
    this.#hour = grown(this.#hour);
    for (const [agent, column] of this.#agentColumns) this.#agentColumns.set(agent, grown(column));
    this.#capacity = capacity;
  }
}
