import type { EvidenceRepository } from "../store/ports/evidence.js";
import { calibratedSession } from "../domain/council/calibrated-session.js";
import { agentMapsAt, calibrationMapAt, modelMapsAt } from "./calibration-lookup.js";
import { z } from "zod";
import { Actor } from "../runtime/actor.js";
import type { ActorContext } from "../runtime/actor-context.js";
import type { MarketFeed } from "../feeds/market-feed.js";
import type { CouncilAdvisorSource } from "../domain/council/advisor-port.js";
import type { CouncilAsset, CouncilInput, CouncilSession } from "../domain/council/council-types.js";
import { deliberate } from "../domain/council/deliberate.js";
import { councilSessionId } from "../domain/council/session-id.js";
import { councilNewData } from "../domain/council/council-event.js";
import type { CouncilSessionRepository } from "../store/ports/council-sessions.js";
import type { RegimeHistoryRepository } from "../store/ports/regime-history.js";
import { councilInputAt, livePriceAt } from "../application/judiciary-inputs.js";
import { regimeOfRuling } from "./regime-of-ruling.js";
import { notePriceGap } from "./outage-span.js";
import { slotAt } from "../domain/market/turn-slots.js";
import { ensureSlotSchedule, FIRST_TURN, slotOfFiring, untilSlot, type SlotSchedule } from "./slot-schedule.js";

const MINUTE = 60_000;
/** SPEC: councils refresh every 30 minutes. */
export const COUNCIL_PERIOD_MS = 30 * MINUTE;

export const COUNCIL_ASSETS: readonly CouncilAsset[] = ["BTC", "TAO", "SOL"];
/** 2: the turn runs `turnOffsetMs` after each 30-minute slot (composition/turn-order.ts). */
const SCHEDULE_VERSION = 2;

export interface CouncilActorDeps {
  /** Where the day's calibration map is read (EvidenceActor fits it): confidence is a probability. */
  readonly evidence: EvidenceRepository;
  readonly feed: MarketFeed;
  readonly sessions: CouncilSessionRepository;
  readonly regimes: Pick<RegimeHistoryRepository, "latestAtOrBefore">;
  /** As the verdicts' (verdict-actor.ts): a session about an hourly close reads that close's regime. */
  readonly askRegimeActor?: boolean;
  /**
   * How long after each 30-minute slot its session is held (about the slot's instant): once the
   * regime of a close is stored, and live once its bar is in the feed. Default 0.
   */
  readonly turnOffsetMs?: number;
  /** The language-model port, one session at a time; null: judiciary mode (no provider configured). */
  readonly advisor: CouncilAdvisorSource | null;
  /**
   * False while the replay warm-up fast-forwards: its ~2,000 historic sessions (14 days x 48 x 3)
   * would mean ~14,000 provider calls and hours of start-up, so they run in judiciary mode.
   */
  readonly modelAllowed?: () => boolean;
  /**
   * TAO's live order-book depth status, as the TAO Ghost Trader last measured it (its 60-second
   * probe), for LIQUIDITY_RISK and the AVOID it forces (DECISIONS 7). Null without an order book
   * (replay): liquidity is UNKNOWN there.
   */
  readonly taoLiquidity?: (() => Promise<"SUFFICIENT" | "INSUFFICIENT" | "UNKNOWN">) | null;
}

export function isCouncilAsset(id: string): id is CouncilAsset {
  return (COUNCIL_ASSETS as readonly string[]).includes(id);
}

export interface RefreshResult {
  /**
   * "session": a session was stored; "paused": BLACKOUT; "fresh": the current slot already has one;
   * "unpriced": the asset has no live price, so there is no market to deliberate on.
   */
  readonly outcome: "session" | "paused" | "fresh" | "unpriced";
  readonly at: number;
}

/**
 * One per council (id BTC, TAO or SOL): every 30 market minutes deliberates over the feed as of
 * that time (with the model when configured, else in judiciary mode), stores the session with
 * every vote and publishes `council.new`. On a macro-calendar BLACKOUT day no session runs, nor
 * in a slot without a live price of the asset (as for the VerdictActor).
 */
export class CouncilActor extends Actor {
  static readonly actorType = "Council";

  constructor(
    ctx: ActorContext,
    private readonly deps: CouncilActorDeps,
  ) {
    super(ctx);
  }

  private get asset(): CouncilAsset {
    if (!isCouncilAsset(this.ctx.id)) throw new Error(`Council actor id must be BTC, TAO or SOL, got ${this.ctx.id}`);
    return this.ctx.id;
  }

  async ensureScheduled(): Promise<void> {
    await ensureSlotSchedule(this.ctx, this.#schedule);
  }

  get #schedule(): SlotSchedule {
    return { reminder: "deliberate", periodMs: COUNCIL_PERIOD_MS, offsetMs: this.deps.turnOffsetMs ?? 0, version: SCHEDULE_VERSION };
  }

  /**
   * The "internal trigger" of SPEC 13: deliberates now unless the current 30-minute slot already
   * has a session. Deliberation is slot-aligned, so nudges never add sessions beyond the schedule.
   */
  async refresh(): Promise<RefreshResult> {
    return this.#run();
  }

  override async receiveReminder(name: string): Promise<void> {
    if (name !== "deliberate" && name !== FIRST_TURN) return;
    slotOfFiring(this.ctx, this.#schedule, name);
    await this.#run();
  }

  /** TAO's input with the live depth status in place of the feed's UNKNOWN, when one is measured. */
  async #withLiveLiquidity(input: CouncilInput): Promise<CouncilInput> {
    const read = this.deps.taoLiquidity;
    if (input.tao === undefined || read === null || read === undefined) return input;
    return { ...input, tao: { ...input.tao, liquidityStatus: await read() } };
  }

  async #run(): Promise<RefreshResult> {
    const asset = this.asset;
    const at = slotAt(this.ctx.clock.now(), COUNCIL_PERIOD_MS, this.deps.turnOffsetMs ?? 0);
    let last = (await this.ctx.state.get("lastAt", z.number())) ?? null;
    if (last !== null && at <= last) return { outcome: "fresh", at: last };
    await untilSlot(this.ctx, at);
    last = await this.#announceUncommitted(last, at);
    if (last !== null && at <= last) return { outcome: "fresh", at: last };
    const priced = livePriceAt(this.deps.feed, asset, at) !== null;
    if (!(await notePriceGap(this.ctx, at, priced, `${asset} council sessions`))) return { outcome: "unpriced", at };
    const regime = await regimeOfRuling(this.ctx, this.deps.regimes, at, this.deps.askRegimeActor ?? false);
    const input = await this.#withLiveLiquidity(councilInputAt(this.deps.feed, asset, at, regime));
    const source = this.deps.modelAllowed === undefined || this.deps.modelAllowed() ? this.deps.advisor : null;
    // No slot is taken on a BLACKOUT day: deliberate would pause before asking anyone.
    const lease = source !== null && input.calendar.status !== "BLACKOUT" ? await source.open(asset) : null;
    let deliberated: CouncilSession | null = null;
    let outcome: Awaited<ReturnType<typeof deliberate>>;
    try {
      outcome = await deliberate(input, { advisor: lease?.advisor ?? null, newId: () => councilSessionId(asset, at) });
      if (outcome.kind === "session") deliberated = outcome.session;
    } finally {
      lease?.close(deliberated);
    }
    if (outcome.kind === "paused") {
      // Logged once per BLACKOUT day, not on each of its 48 slots.
      const day = new Date(at).toISOString().slice(0, 10);
      if ((await this.ctx.state.get("pausedDay", z.string())) !== day) {
        this.ctx.logger.info({ asset, day, reason: outcome.reason }, "council paused");
        this.ctx.state.set("pausedDay", day);
      }
      return { outcome: "paused", at };
    }
    const map = await calibrationMapAt(this.ctx, this.deps.evidence, { kind: "council", asset }, at);
    const agentMaps = await agentMapsAt(this.ctx, this.deps.evidence, asset, at);
    // Only a session the model answered in reads the council-mode maps (one more store read).
    const modelMaps = outcome.session.mode === "council" ? await modelMapsAt(this.ctx, this.deps.evidence, asset, at) : null;
    const session = calibratedSession(outcome.session, map, agentMaps.maps, modelMaps);
    await this.deps.sessions.save(session);
    this.ctx.state.set("lastAt", at);
    // Stamped at its slot, as a verdict.new (the turn may run a period late).
    await this.ctx.publish("council.new", { ...councilNewData(session) }, { at: session.at });
    return { outcome: "session", at };
  }

  /**
   * The session write and the turn's commit are not one transaction: a turn that stored a session
   * and then failed left a published session whose `council.new` was rolled back. The next turn
   * finds it newer than `lastAt` and announces it once (as the VerdictActor does). Returns the new `lastAt`.
   */
  async #announceUncommitted(last: number | null, at: number): Promise<number | null> {
    if (last === null) return last;
    const stored = await this.deps.sessions.latest(this.asset, at);
    if (stored === null || stored.at <= last) return last;
    this.ctx.state.set("lastAt", stored.at);
    // The rolled-back turn's event, sent again with its session's time (see VerdictActor).
    await this.ctx.publish("council.new", { ...councilNewData(stored) }, { at: stored.at });
    return stored.at;
  }
}
