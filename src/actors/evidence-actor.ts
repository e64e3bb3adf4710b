import { z } from "zod";
import { Actor } from "../runtime/actor.js";
import type { ActorContext } from "../runtime/actor-context.js";
import type { MarketFeed } from "../feeds/market-feed.js";
import { ASSETS, type Asset } from "../domain/signals/signal-keys.js";
import { DEFAULT_CALIBRATION, calibrationMapSchema, type CalibrationMap } from "../domain/calibration/calibration-map.js";
import { refitTime, WalkForwardCalibrator, type CalibratedHour } from "../domain/calibration/walk-forward-calibrator.js";
import { indexAtOrBefore, PricePathBuilder, type PricePath } from "../domain/calibration/price-path.js";
import { evaluateSpanSteps, HELD_OUT_FROM, DEFAULT_EVALUATION } from "../domain/evaluation/verdict-evaluation.js";
import { GradedHours } from "../domain/evaluation/graded-hours.js";
import type { EvidenceRepository } from "../store/ports/evidence.js";
import type { RegimeHistoryRepository } from "../store/ports/regime-history.js";
import { calibrationLeadMs, councilHourAt, extendPricePath, scoredHourAt, streamId, type RulingStream } from "../application/ruling-streams.js";
import { ROSTERS } from "../domain/council/rosters.js";
import { fitModelMaps, type ModelMaps } from "../domain/council/model-calibration.js";
import type { CouncilSessionRepository } from "../store/ports/council-sessions.js";
import type { CouncilAsset } from "../domain/council/council-types.js";
import { withOutcomesSteps } from "../domain/evaluation/stream-outcomes.js";
import { drainSteps, EventLoopSlice } from "../runtime/cooperative.js";
import { regimeHoursFrom } from "../application/regime-hours.js";
import type { CalibrationHistoryRepository } from "../store/ports/calibration-history.js";
import type { RecordableHour } from "../application/recorded-rulings.js";
import { CalibrationRecord } from "../application/calibration-record.js";
import { evaluateRegimesSteps } from "../domain/evaluation/regime-evaluation.js";
import { nextBarTurn } from "../domain/market/turn-slots.js";
import { scheduleTag } from "./schedule-tag.js";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** Evaluations are recomputed every 6 market hours (outcomes mature hourly; the figures move slowly). */
export const EVALUATION_PERIOD_MS = 6 * HOUR;
/**
 * While the warm-up fast-forwards, once a market week: each evaluation costs about a second of
 * CPU per asset, and the 56 a 14-day warm-up would otherwise make cost more than the warm-up.
 */
export const WARM_UP_EVALUATION_PERIOD_MS = 7 * DAY;

/**
 * How old the last evaluation must be for the next one. In the warm-up's last hour the usual
 * period applies again: the evaluation the routes serve (and cache for 300 s) when the service
 * turns ready is then at most 6 market hours old, not up to the week the spacing allows.
 */
export function evaluationGapMs(now: number, warmUpEndsAt: number | null): number {
  const spacedOut = warmUpEndsAt !== null && warmUpEndsAt - now >= HOUR;
  return spacedOut ? WARM_UP_EVALUATION_PERIOD_MS : EVALUATION_PERIOD_MS;
}
/** The regime evaluation reads what the service published: the regime history's retention, 90 days. */
const REGIME_EVALUATION_SPAN_MS = 90 * DAY;
/**
 * 2: the evaluate reminder checks hourly and evaluates when the last evaluation is old enough.
 * 3: the check waits `barTurnOffsetMs` after the close (live bars settle after it).
 */
const SCHEDULE_VERSION = 3;
/**
 * The shape of the stored evaluation documents. Raised whenever it changes (2: the regime rows'
 * `gradedHours`; 3: the regime evaluation's `r2AddedByChance`): an actor whose last evaluation
 * was written in another shape evaluates at its next hourly check instead of waiting out the
 * 6-hour period, and the routes meanwhile answer "not computed yet" rather than serve the other
 * shape.
 */
export const EVALUATION_FORMAT = 3;

export const calibrationKey = (s: RulingStream): string => `calibration:${streamId(s)}`;
/** One document per council: its six agents' maps, fitted together (one read per session). */
export const agentCalibrationKey = (asset: CouncilAsset): string => `calibration:agents:${asset}`;
/** One document per council: its council-mode maps (the model's sessions and votes). */
export const modelCalibrationKey = (asset: CouncilAsset): string => `calibration:model:${asset}`;
export const verdictEvaluationKey = (asset: Asset): string => `evaluation:verdicts:${asset}`;
export const REGIME_EVALUATION_KEY = "evaluation:regime:BTC";

export const mapRequestSchema = z.object({ kind: z.enum(["verdict", "council"]), at: z.number().int() });
export type MapRequest = z.infer<typeof mapRequestSchema>;

/** The maps of a council's agents in force on one market day, keyed by agent name. */
export const agentMapsSchema = z.object({ fittedAt: z.number().int(), maps: z.record(z.string(), calibrationMapSchema) });
export type AgentMaps = z.infer<typeof agentMapsSchema>;

export const modelMapsSchema = z.object({ fittedAt: z.number().int(), session: calibrationMapSchema, agents: z.record(z.string(), calibrationMapSchema) });

export interface EvidenceActorDeps {
  readonly feed: MarketFeed;
  readonly evidence: EvidenceRepository;
  readonly regimes: Pick<RegimeHistoryRepository, "between">;
  /** The stored sessions the language model answered in: the council-mode streams' history. */
  readonly sessions: Pick<CouncilSessionRepository, "modelSessionsBetween">;
  /** While the replay warm-up fast-forwards the clock, where it ends (evaluations are then spaced out); else null. */
  readonly warmUpEndsAt?: () => number | null;
  /**
   * Live mode's record of the streams' hourly rulings and the asset's closes: what a restarted
   * or moved actor calibrates on, since the live feed keeps only its newest 2,400 bars (100
   * days). Replay mode neither reads nor writes it (the bundled history is the record there).
   */
  readonly history: CalibrationHistoryRepository;
  /** How long after each hourly close the evaluation turn runs (live bars reach the feed after it); default 0. */
  readonly barTurnOffsetMs?: number;
}

/** One stream's walk-forward state, rebuilt on activation from the feed (and in live mode the record; see `catchUp`). */
interface StreamState {
  readonly calibrator: WalkForwardCalibrator;
  /** Council streams: one calibrator per agent, fed by the same deliberations (maps fitted when asked). */
  readonly agents: ReadonlyMap<string, WalkForwardCalibrator>;
  /**
   * Published rows not yet graded (verdict streams, from the held-out span on): the evaluation
   * moves them into `evaluated`.
   */
  rows: CalibratedHour[];
  /** The price path the last catch-up read (bars closed by then), reused by the evaluation. */
  prices: PricePath;
  /** Live mode: hours read from the record at activation and not yet processed. */
  readonly recorded: Map<number, RecordableHour>;
  /** Every published row with its outcomes as of the last evaluation (its settled rows are reused). */
  evaluated: GradedHours;
  processedTo: number;
}

export function isEvidenceAsset(id: string): id is Asset {
  return (ASSETS as readonly string[]).includes(id);
}

/**
 * The evidence behind what the service publishes, per asset (issue 16): the walk-forward
 * calibration maps of the asset's verdict stream (and council stream for BTC, TAO, SOL), and
 * the evaluation of its published verdicts. In replay the ruling streams are a pure function of
 * the feed up to the market time; in live mode they are what the service recorded in the store
 * (`CalibrationRecord`) plus what the feed holds since. Either way the rows this actor keeps in
 * memory are a derived cache that any replica rebuilds identically on activation; what others
 * read (maps, evaluations) goes to the store. Asked by the verdict and council actors for the
 * map of a day (`mapFor`).
 */
export class EvidenceActor extends Actor {
  static readonly actorType = "Evidence";
  private readonly streams = new Map<string, StreamState>();
  /**
   * The asset's hourly closes up to the newest time asked for, shared by its streams and
   * extended in place (derived from the feed like `streams`; see #pricesTo).
   */
  readonly #prices = new PricePathBuilder(24 * 366 * 4);

  /** Live mode: what the actor calibrates on besides the feed (null in replay, where the feed is the record). */
  #recordOrNull: CalibrationRecord | null | undefined;

  constructor(
    ctx: ActorContext,
    private readonly deps: EvidenceActorDeps,
  ) {
    super(ctx);
  }

  get #record(): CalibrationRecord | null {
    if (this.#recordOrNull === undefined) this.#recordOrNull = this.deps.feed.mode === "live" ? new CalibrationRecord(this.deps.history, this.deps.feed, this.asset) : null;
    return this.#recordOrNull;
  }

  private get asset(): Asset {
    if (!isEvidenceAsset(this.ctx.id)) throw new Error(`Evidence actor id must be an asset, got ${this.ctx.id}`);
    return this.ctx.id;
  }

  async ensureScheduled(): Promise<void> {
    const offset = this.deps.barTurnOffsetMs ?? 0;
    const wanted = scheduleTag(SCHEDULE_VERSION, offset);
    const version = await this.ctx.state.get("schedule", z.number());
    if (version === wanted) return;
    const now = this.ctx.clock.now();
    this.ctx.reminders.set("evaluate", { dueAt: nextBarTurn(now, offset), periodMs: HOUR });
    this.ctx.state.set("schedule", wanted);
  }

  override async receiveReminder(name: string): Promise<void> {
    if (name === "evaluate") await this.#evaluate();
  }

  /**
   * The calibration map in force at `at` for this asset's `kind` stream: fitted at the start of
   * at's UTC day on the outcomes matured by then. Stored so routes and replicas read it.
   */
  async mapFor(request: MapRequest): Promise<CalibrationMap> {
    const { kind, at } = mapRequestSchema.parse(request);
    const stream = this.#streamOf(kind);
    const state = await this.#catchUp(stream, Math.min(at, this.ctx.clock.now()));
    const map = state.calibrator.mapAt(at);
    await this.deps.evidence.put({ key: calibrationKey(stream), at: map.fittedAt, body: map });
    return map;
  }

  /**
   * The maps of the council's agents in force at `at` (same fit rule as `mapFor`), stored as one
   * document so the council actor reads them in one go.
   */
  async agentMapsFor(request: { at: number }): Promise<AgentMaps> {
    const { at } = z.object({ at: z.number().int() }).parse(request);
    const stream = this.#streamOf("council");
    const state = await this.#catchUp(stream, Math.min(at, this.ctx.clock.now()));
    const maps: Record<string, CalibrationMap> = {};
    for (const [agent, calibrator] of state.agents) maps[agent] = calibrator.mapAt(at);
    // The maps' own fit time: until the close at midnight is known they are the day before's
    // (WalkForwardCalibrator.mapAt), and a document stamped with today would stand all day.
    const fits = Object.values(maps).map((m) => m.fittedAt);
    const body: AgentMaps = { fittedAt: fits.length === 0 ? refitTime(at) : Math.min(...fits), maps };
    await this.deps.evidence.put({ key: agentCalibrationKey(stream.asset), at: body.fittedAt, body });
    return body;
  }

  /**
   * The council-mode maps in force at `at`, fitted on the sessions the language model answered
   * in that the store holds (the trailing window plus the horizon before the day's fit). Read
   * from the store each time: they are what this and every other replica published.
   */
  async modelMapsFor(request: { at: number }): Promise<ModelMaps> {
    const { at } = z.object({ at: z.number().int() }).parse(request);
    const asset = this.#streamOf("council").asset;
    const fitAt = refitTime(Math.min(at, this.ctx.clock.now()));
    const prices = await this.#pricesTo(fitAt);
    // As the verdict and council maps (WalkForwardCalibrator.mapAt): the day's fit waits for the
    // close at its fit time, so the outcomes ending then are graded as any later fit grades them.
    const known = prices.lastTime();
    if (known === null || known < fitAt) {
      const stored = await this.deps.evidence.get(modelCalibrationKey(asset));
      const before = stored === null ? null : modelMapsSchema.safeParse(stored.body);
      if (before?.success === true && before.data.fittedAt < fitAt) return before.data;
    }
    const sessions = await this.deps.sessions.modelSessionsBetween(asset, fitAt - calibrationLeadMs(), fitAt);
    const maps = fitModelMaps(asset, sessions, prices, fitAt, DEFAULT_CALIBRATION);
    await this.deps.evidence.put({ key: modelCalibrationKey(asset), at: maps.fittedAt, body: maps });
    return maps;
  }

  #streamOf(kind: "verdict"): RulingStream & { kind: "verdict" };
  #streamOf(kind: "council"): RulingStream & { kind: "council" };
  #streamOf(kind: "verdict" | "council"): RulingStream;
  #streamOf(kind: "verdict" | "council"): RulingStream {
    const asset = this.asset;
    if (kind === "verdict") return { kind, asset };
    if (asset === "ETH") throw new Error("ETH has no council");
    return { kind, asset };
  }

  /**
   * Brings the stream's rows up to `to` (bar closes at or before it), handing the event loop back
   * every few milliseconds: a catch-up from the start of the data takes tens of seconds.
   */
  async #catchUp(stream: RulingStream, to: number): Promise<StreamState> {
    const id = streamId(stream);
    const prices = await this.#pricesTo(to);
    let state = this.streams.get(id);
    if (state === undefined) {
      // Start early enough that every map from the held-out span on (or from the first hour in
      // live mode) is exactly the one a run from the start of the data would fit.
      const verdictStart = HELD_OUT_FROM - calibrationLeadMs();
      const councilStart = to - calibrationLeadMs();
      const start = Math.max(prices.length === 0 ? to : prices.timeAt(0), stream.kind === "verdict" ? Math.min(verdictStart, councilStart) : councilStart);
      const agents = new Map<string, WalkForwardCalibrator>();
      if (stream.kind === "council") {
        for (const a of ROSTERS[stream.asset].agents) agents.set(a.name, new WalkForwardCalibrator(streamId({ kind: "agent", asset: stream.asset, agent: a.name }), prices, DEFAULT_CALIBRATION));
      }
      const recorded = this.#record === null ? new Map<number, RecordableHour>() : await this.#record.hours(stream, start, to);
      state = { calibrator: new WalkForwardCalibrator(id, prices, DEFAULT_CALIBRATION), agents, rows: [], prices, recorded, evaluated: new GradedHours(), processedTo: start - 1 };
      this.streams.set(id, state);
    }
    // The calibrator reads prices only up to each fit time; it gets the newest series each time.
    state.prices = prices;
    state.calibrator.setPrices(prices);
    for (const c of state.agents.values()) c.setPrices(prices);
    // Given up when the host stops (the turn rolls back; the next activation resumes from its
    // stored evaluation).
    const slice = new EventLoopSlice({ signal: this.ctx.stopping });
    for (let i = indexAtOrBefore(prices, state.processedTo) + 1; i < prices.length; i++) {
      const t = prices.timeAt(i);
      const hour = await this.#hourAt(stream, state, t);
      if (hour !== null) {
        for (const vote of hour.agents) state.agents.get(vote.agent)?.observe(vote);
        const row = state.calibrator.calibrate({ at: t, ruling: hour.ruling, score: hour.score });
        if (stream.kind === "verdict" && row.at >= HELD_OUT_FROM) state.rows.push(row);
      }
      state.processedTo = t;
      await slice.maybeYield();
    }
    await this.#record?.flush();
    return state;
  }

  /**
   * The stream's ruling at `t`, with a council's agents' rule votes. Live mode reads it from the
   * record when the record holds it, and records what it rules from the feed.
   */
  async #hourAt(stream: RulingStream, state: StreamState, t: number): Promise<RecordableHour | null> {
    const recorded = state.recorded.get(t);
    if (recorded !== undefined) {
      state.recorded.delete(t);
      return recorded;
    }
    // An hour the record holds no ruling for (a BLACKOUT hour, or the service was not running
    // then) and the feed does not hold either: nothing to rule it on.
    if (this.#record !== null && !this.#record.feedHolds(t)) return null;
    const hour: RecordableHour | null = stream.kind === "council" ? await councilHourAt(this.deps.feed, stream.asset, t) : await this.#verdictHourAt(stream, t);
    if (hour !== null) await this.#record?.note(stream, hour);
    return hour;
  }

  async #verdictHourAt(stream: RulingStream, t: number): Promise<RecordableHour | null> {
    const hour = await scoredHourAt(this.deps.feed, stream, t);
    return hour === null ? null : { at: hour.at, ruling: hour.ruling, score: hour.score, agents: [] };
  }

  /**
   * The asset's hourly closes at or before `to` (a view of the shared path, no copy), so no
   * caller sees a bar closed after the time it asked for. In live mode the path starts with the
   * closes the record holds (`recordSpanMs` back), and every new close is recorded.
   */
  async #pricesTo(to: number): Promise<PricePath> {
    await this.#record?.seed(this.#prices, to);
    extendPricePath(this.deps.feed, this.asset, this.#prices, to);
    await this.#record?.recordCloses(this.#prices.path());
    return this.#prices.path().upTo(to);
  }

  /**
   * Recomputes the published evaluations from the rows and the outcomes known now. The held-out
   * span's ~29,000 rows cost 310–400 ms of CPU per asset; run in one piece, that held every
   * request of the process for as long (the HTTP bench's paced p99.9 read 95–161 ms), so it runs
   * in slices of the event loop.
   */
  async #evaluate(): Promise<void> {
    const now = this.ctx.clock.now();
    const last = await this.ctx.state.get("evaluatedAt", z.number());
    const format = await this.ctx.state.get("evaluationFormat", z.number());
    if (last !== undefined && format === EVALUATION_FORMAT && now - last < evaluationGapMs(now, this.deps.warmUpEndsAt?.() ?? null)) return;
    const asset = this.asset;
    const stream: RulingStream = { kind: "verdict", asset };
    const state = await this.#catchUp(stream, now);
    const map = state.calibrator.mapAt(now);
    await this.deps.evidence.put({ key: calibrationKey(stream), at: map.fittedAt, body: map });
    const prices = state.prices;
    const slice = new EventLoopSlice({ signal: this.ctx.stopping });
    // Live mode evaluates the trailing year, whose rows' maps the record covers too
    // (`recordSpanMs`), so an actor that has lived for years and one restarted today publish the
    // same figures; older rows are dropped here, so what the actor keeps and copies stays a
    // year's worth however long it runs. Replay evaluates the bundled span from 2023 whole.
    const from = this.#record === null ? Number.NEGATIVE_INFINITY : now - DEFAULT_CALIBRATION.windowDays * DAY;
    const graded = await drainSteps(withOutcomesSteps(state.rows, prices, now, state.evaluated, from), slice);
    // The graded rows carry everything a later regrading needs: the calibrated ones are done with.
    state.evaluated = graded;
    state.rows = [];
    // As objects only while this evaluation reads them (columns are what the actor keeps).
    const rows = await drainSteps(graded.rowsSteps(), slice);
    // Named for what it covers: a live caller reading "from_2023" over the last year only would be misled.
    const span = await drainSteps(evaluateSpanSteps(this.#record === null ? "from_2023" : "trailing_365d", rows, DEFAULT_EVALUATION), slice);
    await this.deps.evidence.put({
      key: verdictEvaluationKey(asset),
      at: now,
      body: { asset, horizonHours: DEFAULT_CALIBRATION.horizonHours, evaluatedAt: now, spans: rows.length === 0 ? [] : [span], calibration: map },
    });
    if (asset === "BTC") {
      const published = await this.deps.regimes.between(now - REGIME_EVALUATION_SPAN_MS, now);
      const regimeRows = regimeHoursFrom(published, prices, now);
      const regimes = await drainSteps(evaluateRegimesSteps(regimeRows), slice);
      await this.deps.evidence.put({ key: REGIME_EVALUATION_KEY, at: now, body: { evaluatedAt: now, ...regimes } });
    }
    await this.#record?.prune(now);
    this.ctx.state.set("evaluatedAt", now);
    this.ctx.state.set("evaluationFormat", EVALUATION_FORMAT);
  }
}

/** Reads back a stored map (routes and the verdict actors use this before asking the actor). */
export function storedMap(body: unknown): CalibrationMap | null {
  const parsed = calibrationMapSchema.safeParse(body);
  return parsed.success ? parsed.data : null;
}
