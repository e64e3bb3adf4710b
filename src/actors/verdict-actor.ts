import { z } from "zod";
import { Actor } from "../runtime/actor.js";
import type { ActorContext } from "../runtime/actor-context.js";
import type { MarketFeed } from "../feeds/market-feed.js";
import { ASSETS, type Asset } from "../domain/signals/signal-keys.js";
import { evaluateJudiciary } from "../domain/judiciary/evaluate.js";
import { verdictNewData } from "../domain/judiciary/judiciary-verdict.js";
import { verdictId } from "../domain/judiciary/verdict-id.js";
import type { StoredVerdict, VerdictPruning, VerdictRepository } from "../store/ports/verdicts.js";
import type { RegimeHistoryRepository } from "../store/ports/regime-history.js";
import type { MultiplierSource } from "../store/ports/signal-weights.js";
import { judiciaryInputAt, livePriceAt } from "../application/judiciary-inputs.js";
import type { EvidenceRepository } from "../store/ports/evidence.js";
import { calibratedVerdict } from "../domain/judiciary/calibrated-verdict.js";
import { calibrationMapAt } from "./calibration-lookup.js";
import { regimeOfRuling } from "./regime-of-ruling.js";
import { notePriceGap } from "./outage-span.js";
import { ensureSlotSchedule, FIRST_TURN, slotOfFiring, untilSlot, type SlotSchedule } from "./slot-schedule.js";
import { slotAt, slotsToMake } from "../domain/market/turn-slots.js";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
/** SPEC Events: a new Judiciary ruling about every 5 minutes. */
export const VERDICT_PERIOD_MS = 5 * MINUTE;
/** Retention: verdicts older than this (market time) are pruned, hourly, per asset. */
export const VERDICT_RETENTION_MS = 30 * 24 * HOUR;
/**
 * A turn makes the slots it finds missed since the last verdict, up to this many (one market hour):
 * a turn that ran a period late. A longer gap is an outage of the service or of the asset's price,
 * whose slots stay without a verdict, as the routes and `verdict.new` have always said.
 */
const MAX_CATCH_UP_SLOTS = 12;
/** 2: the turn runs `turnOffsetMs` after each 5-minute slot (composition/turn-order.ts). */
const SCHEDULE_VERSION = 2;

export interface VerdictActorDeps {
  readonly feed: MarketFeed;
  readonly verdicts: VerdictRepository & VerdictPruning;
  readonly regimes: Pick<RegimeHistoryRepository, "latestAtOrBefore">;
  /**
   * The Regime actor runs beside this one (the service): a verdict about an hourly close whose
   * regime is not stored yet asks it to evaluate that close first (regime-of-ruling.ts).
   */
  readonly askRegimeActor?: boolean;
  /**
   * How long after each 5-minute slot its verdict is made (about the slot's instant): once the
   * regime of a close is stored, and live once its bar is in the feed. Default 0.
   */
  readonly turnOffsetMs?: number;
  readonly weights?: MultiplierSource;
  /** Where the day's calibration map is read (EvidenceActor fits it): confidence is a probability. */
  readonly evidence: EvidenceRepository;
}

export function isVerdictAsset(id: string): id is Asset {
  return (ASSETS as readonly string[]).includes(id);
}

/**
 * One per asset (id BTC, ETH, SOL or TAO): every 5 market minutes runs the Judiciary Engine over
 * the feed as of that time, stores the verdict and, for BTC only, publishes `verdict.new`
 * (DECISIONS 7: the others feed their Ghost Trader's judiciary gate). A slot without a live price
 * of the asset has no verdict.
 */
export class VerdictActor extends Actor {
  static readonly actorType = "Verdict";

  constructor(
    ctx: ActorContext,
    private readonly deps: VerdictActorDeps,
  ) {
    super(ctx);
  }

  private get asset(): Asset {
    if (!isVerdictAsset(this.ctx.id)) throw new Error(`Verdict actor id must be an asset, got ${this.ctx.id}`);
    return this.ctx.id;
  }

  async ensureScheduled(): Promise<void> {
    await ensureSlotSchedule(this.ctx, this.#schedule);
  }

  get #schedule(): SlotSchedule {
    return { reminder: "evaluate", periodMs: VERDICT_PERIOD_MS, offsetMs: this.deps.turnOffsetMs ?? 0, version: SCHEDULE_VERSION };
  }

  /**
   * Makes the current 5-minute slot's verdict unless it is made (as the council's `refresh`): a
   * Ghost Trader about to read the verdict of its close asks first (ghost-trader-actor.ts), so it
   * reads that close's verdict even when this actor's own turn runs late. Slot-aligned, so a
   * nudge never adds a verdict beyond the schedule.
   */
  async refresh(): Promise<{ readonly at: number }> {
    const at = slotAt(this.ctx.clock.now(), VERDICT_PERIOD_MS, this.deps.turnOffsetMs ?? 0);
    await this.#evaluate(at);
    return { at };
  }

  /** Market time of the newest stored verdict of this actor, or null before the first. */
  async lastEvaluatedAt(): Promise<number | null> {
    return (await this.ctx.state.get("lastAt", z.number())) ?? null;
  }

  override async receiveReminder(name: string): Promise<void> {
    if (name !== "evaluate" && name !== FIRST_TURN) return;
    await this.#evaluate(slotOfFiring(this.ctx, this.#schedule, name));
  }

  /**
   * The verdict of slot `at`, on the 5-minute grid (its id is then stable under retries and
   * coalescing), and of any slot before it that a late turn left without one.
   */
  async #evaluate(at: number): Promise<void> {
    let last = await this.lastEvaluatedAt();
    if (last !== null && at <= last) return;
    await untilSlot(this.ctx, at);
    last = await this.#announceUncommitted(last, at);
    if (last !== null && at <= last) return;
    // At 210x a 5-minute slot is 1.4 wall seconds, and a turn held up that long (two cores, a
    // busy daprd) used to be about the next slot only: a verdict and its `verdict.new` were lost.
    const slots = slotsToMake(last, at, VERDICT_PERIOD_MS, MAX_CATCH_UP_SLOTS);
    // Once per turn, not per slot: a late turn's slots are all made now, with the weights the
    // store holds now (syncing between them would only repeat the version read).
    await this.deps.weights?.sync?.();
    for (const slot of slots) await this.#make(slot);
    // Said, so an operator sees a host too slow for its schedule before anything is lost.
    if (slots.length > 1) this.ctx.logger.info({ asset: this.asset, slots: slots.length - 1, from: new Date(slots[0] ?? at).toISOString() }, "verdict turn ran late: made the slots it skipped");
  }

  async #make(at: number): Promise<void> {
    const asset = this.asset;
    // No ruling without a live price (a feed outage, an asset before its listing): the route keeps
    // the last real verdict with its time, and subscribers get no HOLD that only says "no data".
    const priced = livePriceAt(this.deps.feed, asset, at) !== null;
    if (!(await notePriceGap(this.ctx, at, priced, `${asset} Judiciary verdicts`))) return;
    // A regime from before a gap in the price is not the regime now (`verdict.new` says UNKNOWN).
    const regime = await regimeOfRuling(this.ctx, this.deps.regimes, at, this.deps.askRegimeActor ?? false);
    const weights = this.deps.weights;
    const input = judiciaryInputAt(this.deps.feed, asset, at, regime, weights ? (k, r) => weights.multiplierFor(k, r) : undefined);
    const raw = evaluateJudiciary(asset, input);
    const map = await calibrationMapAt(this.ctx, this.deps.evidence, { kind: "verdict", asset }, at);
    const entry: StoredVerdict = { id: verdictId(asset, at), at, verdict: calibratedVerdict(raw, map) };
    await this.deps.verdicts.save(entry);
    if (at % HOUR === 0) await this.deps.verdicts.pruneBefore(asset, at - VERDICT_RETENTION_MS);
    this.ctx.state.set("lastAt", at);
    // Stamped at the slot it is about, not the turn's time (up to a period later when the turn
    // ran late): SPEC's data carries no time, and a stamp in the next slot would read as its ruling.
    if (asset === "BTC") await this.ctx.publish("verdict.new", { ...verdictNewData(entry.verdict) }, { at });
  }

  /**
   * The store write and the turn's commit are not one transaction: a turn that stored verdicts
   * and then failed (a crash, a store error on pruning) left published rows whose `verdict.new`
   * was rolled back, and a retry on a later 5-minute slot would never send them. The next turn
   * finds the rows newer than `lastAt` and announces each once, oldest first: a late turn stores
   * up to MAX_CATCH_UP_SLOTS of them, and announcing only the newest lost the others' events.
   * Returns the new `lastAt`.
   */
  async #announceUncommitted(last: number | null, at: number): Promise<number | null> {
    if (last === null) return last;
    const stored = await this.deps.verdicts.between(this.asset, last, at);
    const newest = stored.at(-1);
    if (newest === undefined) return last;
    this.ctx.state.set("lastAt", newest.at);
    // The rolled-back turn's events, sent again: each carries its verdict's slot (DECISIONS 7:
    // retries carry the original). SPEC's data has no time, so a later stamp would tell a
    // subscriber this is the next slot's ruling.
    if (this.asset === "BTC") {
      for (const entry of stored) await this.ctx.publish("verdict.new", { ...verdictNewData(entry.verdict) }, { at: entry.at });
    }
    return newest.at;
  }
}
