import { z } from "zod";
import { Actor } from "../runtime/actor.js";
import type { ActorContext } from "../runtime/actor-context.js";
import type { MarketFeed } from "../feeds/market-feed.js";
import type { RegimeHistoryRepository } from "../store/ports/regime-history.js";
import { REGIMES } from "../domain/market/vocabulary.js";
import { signalSource } from "../domain/signals/catalogue.js";
import { signalStatus } from "../domain/signals/signal-status.js";
import type { SignalKey } from "../domain/signals/signal-keys.js";
import { FEATURE_WARMUP_BARS } from "../domain/regime/features.js";
import type { FlowContext } from "../domain/regime/flow-context.js";
import { evaluateHysteresis, INITIAL_HYSTERESIS, type HysteresisState } from "../domain/regime/hysteresis.js";
import { evaluateRegime } from "../domain/regime/regime-evaluation.js";
import {
  MIN_TRAINING_ROWS,
  regimeModelFromJson,
  regimeModelToJson,
  trainRegimeModel,
  type RegimeModel,
} from "../domain/regime/regime-model.js";
import { regimeModelSchema } from "../domain/regime/model-schema.js";
import { regimeReport } from "../domain/regime/regime-report.js";
import { DEFAULT_WINDOW_BARS } from "../domain/regime/walk-forward.js";
import { DEFAULT_RESTARTS } from "../domain/regime/fit-hmm.js";
import { nextBarTurn } from "../domain/market/turn-slots.js";
import { scheduleTag } from "./schedule-tag.js";

const HOUR = 3_600_000;
/** Walk-forward refit interval (regime.md: weekly, warm-started). */
export const REFIT_EVERY_MS = 7 * 24 * HOUR;
/** Trailing training window: 180 days of feature rows plus the bars the features need first. */
const TRAINING_BARS = DEFAULT_WINDOW_BARS + FEATURE_WARMUP_BARS;
/** The first fit may start with less history (e.g. near the start of the data), never below this. */
const MIN_TRAINING_BARS = MIN_TRAINING_ROWS + FEATURE_WARMUP_BARS;
/** Bars filtered per evaluation: a week of lead (the filter forgets its start within days) plus the features' warm-up. */
const FILTER_BARS = 2 * FEATURE_WARMUP_BARS;
/** Bars a turn catches up on after missed or failed turns: a day; older ones stay unevaluated. */
const MAX_CATCH_UP_BARS = 24;
/**
 * History retention: evaluations older than 90 market days (BTC trades around the clock, so a
 * market day is 24 h of market time) before the newest evaluated bar are deleted once a day.
 * Every reader looks back far less: the history route 7 days, the Ghost Traders and the council
 * the regime at a bar close. Without it the table grows by 8,760 rows a year, and on FerretDB
 * `latestAtOrBefore` slows with every row.
 */
export const RETENTION_MS = 90 * 24 * HOUR;
const DAY = 24 * HOUR;
/** 2: adds the daily "prune" reminder. 3: the hourly turn waits `barTurnOffsetMs` after the close. */
const SCHEDULE_VERSION = 3;

const hysteresisSchema = z.object({
  regime: z.enum(REGIMES).nullable(),
  since: z.number().nullable(),
  candidate: z.enum(REGIMES).nullable(),
  candidateCount: z.number().int().nonnegative(),
});

const evaluateThroughSchema = z.object({ close: z.number().int() });

export interface RegimeActorDeps {
  readonly feed: MarketFeed;
  readonly history: RegimeHistoryRepository;
  /** Seeded restarts per fit (default 10; a full fit costs about 1 s, see docs/regime.md). */
  readonly restarts?: number;
  /** How long after each hourly close the turn runs (live bars reach the feed after it); default 0. */
  readonly barTurnOffsetMs?: number;
}

/** What the actor holds, for operators and tests (no model internals). */
export interface RegimeActorStatus {
  readonly lastBarClose: number | null;
  readonly regime: string | null;
  readonly candidate: string | null;
  readonly modelTrainedAt: number | null;
}

/**
 * BTC regime detection (issue 6). One instance ("BTC"). At every hourly bar close (market time)
 * it filters the newest bar with the current HMM, applies DECISIONS 4's hysteresis, records the
 * report in the regime history and publishes `regime.change` when the published regime moves.
 * Once a week it refits on the trailing 180 days, warm-started from the model it replaces. State:
 * the model JSON, the hysteresis state and the close time of the newest bar evaluated.
 */
export class RegimeActor extends Actor {
  static readonly actorType = "Regime";
  static readonly ID = "BTC";

  constructor(
    ctx: ActorContext,
    private readonly deps: RegimeActorDeps,
  ) {
    super(ctx);
  }

  /**
   * Sets the hourly reminder, due at the next bar close, and the daily retention sweep, due at the
   * next market midnight (UTC), unless this version of them is set.
   */
  async ensureScheduled(): Promise<void> {
    const offset = this.deps.barTurnOffsetMs ?? 0;
    const wanted = scheduleTag(SCHEDULE_VERSION, offset);
    const version = await this.ctx.state.get("schedule", z.number());
    if (version === wanted) return;
    const now = this.ctx.clock.now();
    this.ctx.reminders.set("evaluate", { dueAt: nextBarTurn(now, offset), periodMs: HOUR });
    this.ctx.reminders.set("prune", { dueAt: Math.ceil(now / DAY) * DAY, periodMs: DAY });
    this.ctx.state.set("schedule", wanted);
  }

  async status(): Promise<RegimeActorStatus> {
    const hysteresis = await this.ctx.state.get("hysteresis", hysteresisSchema);
    const model = await this.ctx.state.get("model", regimeModelSchema);
    return {
      lastBarClose: (await this.ctx.state.get("lastBarClose", z.number())) ?? null,
      regime: hysteresis?.regime ?? null,
      candidate: hysteresis?.candidate ?? null,
      modelTrainedAt: model ? Date.parse(model.fit.trained_at) : null,
    };
  }

  /**
   * Evaluates the bars closed up to now when the one closing at `close` is not evaluated yet: a
   * ruling about that close asks first (regime-of-ruling.ts), since its turn and this actor's are
   * due at the same instant. The same work as the hourly turn, which then finds nothing to do.
   */
  async evaluateThrough(request: { readonly close: number }): Promise<void> {
    const { close } = evaluateThroughSchema.parse(request);
    const lastBarClose = await this.ctx.state.get("lastBarClose", z.number());
    if (lastBarClose !== undefined && lastBarClose >= close) return;
    await this.#evaluate();
  }

  override async receiveReminder(name: string): Promise<void> {
    if (name === "evaluate") await this.#evaluate();
    else if (name === "prune") await this.#prune();
  }

  /**
   * Deletes history older than RETENTION_MS before the newest evaluated bar close. Measured from
   * that bar, not from the clock, so a stopped replay (no new bars) never prunes its newest rows
   * away and /v1/regime/current keeps an answer. Idempotent: a retried or coalesced firing
   * deletes nothing more.
   */
  async #prune(): Promise<void> {
    const lastBarClose = await this.ctx.state.get("lastBarClose", z.number());
    if (lastBarClose === undefined) return;
    const cutoff = lastBarClose - RETENTION_MS;
    const deleted = await this.deps.history.pruneBefore(cutoff);
    if (deleted > 0) this.ctx.logger.info({ deleted, before: new Date(cutoff).toISOString() }, "regime history pruned");
  }

  async #evaluate(): Promise<void> {
    const now = this.ctx.clock.now();
    const recent = this.deps.feed.candles("BTC", "1h", now, MAX_CATCH_UP_BARS);
    const newest = recent[recent.length - 1];
    if (newest === undefined) return;
    const lastBarClose = await this.ctx.state.get("lastBarClose", z.number());
    // Every bar closed since the last evaluation, oldest first, each evaluated once (the
    // hysteresis rule counts evaluations of distinct bars). Usually one; more when a turn failed
    // or a reminder was missed: the failed turn's row may already be stored, while its state was
    // rolled back, so stepping over its bar would start the next one from the state before it.
    const pending = lastBarClose === undefined ? [newest] : recent.filter((c) => c.t + HOUR > lastBarClose);
    let previous = (await this.ctx.state.get("hysteresis", hysteresisSchema)) ?? INITIAL_HYSTERESIS;
    for (const bar of pending) {
      const barClose = bar.t + HOUR;
      const model = await this.#currentModel(barClose);
      if (model === null) continue;
      const candles = this.deps.feed.candles("BTC", "1h", barClose, FILTER_BARS);
      // The newest bar reads the flows as they are now; a caught-up one as they were at its close.
      const evaluation = evaluateRegime(model, candles, flowContextAt(this.deps.feed, bar === newest ? now : barClose));
      // The bar's close time is the detection time: state and report do not depend on how late
      // after the close the reminder fired.
      const step = evaluateHysteresis(previous, evaluation.probabilities, barClose);
      const report = regimeReport(model, evaluation, step.state, candles, barClose);
      // A row already there was written by a turn that failed before its commit: this is its
      // retry, and its event carries that turn's time (DECISIONS 7: retries carry the original).
      const retried = (await this.deps.history.latestAtOrBefore(barClose))?.at === barClose;
      // The store write is the turn's only side effect outside its commit: done first, and
      // idempotent per bar, so a turn that fails after it rewrites the same row when retried.
      await this.deps.history.record({ at: report.detectedAt, report });
      this.ctx.state.set("hysteresis", toJson(step.state));
      this.ctx.state.set("lastBarClose", barClose);
      previous = step.state;
      // The first adoption is no transition (SPEC.md's from_regime is a regime, never null).
      if (step.change !== null && step.change.from !== null) {
        const data = { from_regime: step.change.from, to_regime: step.change.to, confidence: report.confidence };
        await this.ctx.publish("regime.change", data, retried ? { at: barClose } : {});
        this.ctx.logger.info({ from: step.change.from, to: step.change.to, confidence: report.confidence, at: new Date(barClose).toISOString() }, "regime changed");
      }
    }
  }

  /**
   * The stored model, refitted when a week old; the first call fits from the data as of `now`
   * (the newest bar close, so a fit never depends on how late its reminder fired). Null: too
   * little history yet.
   */
  async #currentModel(now: number): Promise<RegimeModel | null> {
    const stored = await this.ctx.state.get("model", regimeModelSchema);
    const previous = stored ? regimeModelFromJson(stored) : null;
    if (previous !== null && now - previous.fit.trainedAt < REFIT_EVERY_MS) return previous;
    const window = this.deps.feed.candles("BTC", "1h", now, TRAINING_BARS);
    if (window.length < MIN_TRAINING_BARS) {
      if (previous === null) this.ctx.logger.info({ bars: window.length, needed: MIN_TRAINING_BARS }, "regime model not fitted yet: too little BTC history");
      return previous;
    }
    const restarts = this.deps.restarts ?? DEFAULT_RESTARTS;
    const started = performance.now();
    let model: RegimeModel;
    try {
      model = trainRegimeModel(window, { trainedAt: now, restarts, ...(previous !== null ? { previous } : {}) });
    } catch (err) {
      // A failed refit must not stop hourly detection: the previous model serves until the next hour retries.
      if (previous === null) throw err;
      this.ctx.logger.warn({ err: String(err) }, "regime refit failed; keeping the previous model");
      return previous;
    }
    this.ctx.logger.info(
      {
        wall_ms: Math.round(performance.now() - started),
        restarts,
        bars: window.length,
        iterations: model.fit.iterations,
        warm_started: model.fit.warmStarted,
        labels: model.labels,
      },
      "regime model fitted",
    );
    this.ctx.state.set("model", regimeModelToJson(model));
    return model;
  }
}

/** ENTITY_PRESSURE and WHALE_FLOW as the regime labels use them: the latest value, or null when the signal is DEAD. */
export function flowContextAt(feed: MarketFeed, at: number): FlowContext {
  const readings = feed.latestReadings(at);
  const value = (key: SignalKey): number | null => {
    const reading = readings.get(key);
    const status = signalStatus(reading?.observedAt ?? null, signalSource(key, feed.mode)?.refreshMs ?? null, at);
    return status === "DEAD" || reading === undefined ? null : reading.value;
  };
  return { entityPressure: value("ENTITY_PRESSURE"), whaleFlow: value("WHALE_FLOW") };
}

function toJson(s: HysteresisState): { regime: string | null; since: number | null; candidate: string | null; candidateCount: number } {
  return { regime: s.regime, since: s.since, candidate: s.candidate, candidateCount: s.candidateCount };
}
