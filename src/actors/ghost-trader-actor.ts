import { z } from "zod";
import { Actor } from "../runtime/actor.js";
import type { ActorContext } from "../runtime/actor-context.js";
import type { Json } from "../runtime/json.js";
import { ASSET_RULES } from "../domain/ghost/asset-rules.js";
import type { LiquidityView } from "../domain/ghost/bar-input.js";
import type { CostModel } from "../domain/ghost/costs.js";
import { ackSignals, ghostStatus, initialGhostState, startSprint, stepGhost, type GhostSignal, type GhostState } from "../domain/ghost/ghost-trader.js";
import { periodMarkFor, type SprintMark } from "../domain/ghost/sprints.js";
import type { ClosedTrade } from "../domain/ghost/trade.js";
import { exitBarOf } from "../domain/ghost/position-exits.js";
import { ASSETS, type Asset } from "../domain/signals/signal-keys.js";
import type { GhostBarSource } from "../application/ghost-bar-source.js";
import { noteOutage } from "./outage-span.js";
import type { GhostLedgerRepository } from "../store/ports/ghost-ledger.js";
import { nextBarTurn } from "../domain/market/turn-slots.js";
import { scheduleTag } from "./schedule-tag.js";
import { VerdictActor } from "./verdict-actor.js";
import { CouncilActor, isCouncilAsset } from "./council-actor.js";

const HOUR = 3_600_000;
const MINUTE = 60_000;
/**
 * 2: the TAO liquidity reminder follows whether a probe is wired (live) or not (replay).
 * 3: every trader probes its depth live (DECISIONS 7: BTC, ETH and SOL gates have the TAO form).
 * 4: the bar turn waits `barTurnOffsetMs` after the close (live bars settle after it).
 */
const SCHEDULE_VERSION = 4;
/**
 * Bars applied in one turn after an outage: a week, the longest a position can stay open. A
 * longer outage is caught up a week per turn, oldest bars first, so an open position meets every
 * bar it lived through (taking the newest week skipped the older bars for good).
 */
const MAX_CATCH_UP_BARS = 168;

const REPLAY_LIQUIDITY: LiquidityView = { status: "UNKNOWN", depthUsd: null, live: false };
/** Live, before the first probe has answered: depth not measured, so gate 0 stays shut. */
const UNMEASURED_LIVE: LiquidityView = { status: "UNKNOWN", depthUsd: null, live: true };

/** USD depth within ±0.5 % of mid, or null when the probe failed. */
export type LiquidityProbe = (asset: Asset) => Promise<number | null>;

export interface GhostTraderDeps {
  readonly source: GhostBarSource;
  readonly ledger: GhostLedgerRepository;
  readonly costs: CostModel;
  /** Live mode only (DECISIONS 7): replay has no order book, so liquidity stays UNKNOWN there. */
  readonly liquidityProbe: LiquidityProbe | null;
  /**
   * How long after each hourly close the bar turn runs: 0 in replay; live, once the bar is in
   * the feed and the regime row for the same close is stored (composition/capabilities/ghost.ts).
   */
  readonly barTurnOffsetMs: number;
  /**
   * The Verdict and Council actors run beside this one (the service): before a turn applies its
   * close, the trader asks them to make that close's ruling if their own turn has not yet, so it
   * reads its close's verdict and session however late their turn runs. Default false.
   */
  readonly askRulingActors?: boolean;
}

const ghostStateSchema = z.custom<GhostState>(
  (v) => typeof v === "object" && v !== null && "asset" in v && "lastBarT" in v && "position" in v,
  "not a Ghost Trader state",
);
const liquiditySchema = z.object({ status: z.enum(["SUFFICIENT", "INSUFFICIENT", "UNKNOWN"]), depthUsd: z.number().nullable() });

/** A live probe's answer: at or above the asset's gate-0 depth is SUFFICIENT; a failed probe is UNKNOWN. */
export function liquidityFromDepth(asset: Asset, depthUsd: number | null): LiquidityView {
  if (depthUsd === null) return UNMEASURED_LIVE;
  return { status: depthUsd >= ASSET_RULES[asset].minDepthUsd ? "SUFFICIENT" : "INSUFFICIENT", depthUsd, live: true };
}

/**
 * The state a bar at `barT` is applied to: from the first bar of a sprint that began after the
 * state's, a clean slate (`startSprint`; for a new trader that changes nothing). A state stored
 * before restarts reset equity adopts the current mark as it stands.
 */
function atSprintOf(state: GhostState, mark: SprintMark | null, barT: number): GhostState {
  if (mark === null || state.sprintMarkId === mark.id) return state;
  if (state.sprintMarkId === undefined) return { ...state, sprintMarkId: mark.id };
  return barT >= mark.at ? startSprint(state, mark.id) : state;
}

/**
 * One Ghost Trader per asset (ids BTC, ETH, SOL, TAO). An hourly reminder at bar close (market
 * time) applies every closed bar not applied yet to the pure state machine. Within one turn, and
 * so before any `ghost.signal` leaves the outbox, it writes closed trades to the ledger (upsert by
 * trade id: a failed turn that is retried writes the same rows) and the status snapshot the routes
 * read; the state and the events then commit together. The step is idempotent per bar, so a
 * reminder that fires twice never enters or exits twice.
 */
export class GhostTraderActor extends Actor {
  static readonly actorType = "GhostTrader";
  static readonly IDS: readonly Asset[] = ASSETS;

  constructor(
    ctx: ActorContext,
    private readonly deps: GhostTraderDeps,
  ) {
    super(ctx);
  }

  private get asset(): Asset {
    const id = this.ctx.id;
    const asset = ASSETS.find((a) => a === id);
    if (asset === undefined) throw new RangeError(`no Ghost Trader for ${id}`);
    return asset;
  }

  /** Sets the hourly bar-close reminder (and, live, the 60-second depth probe) unless already set. */
  async ensureScheduled(): Promise<void> {
    // One store may run live, then replay: the version says which of the two schedules is set.
    const probing = this.deps.liquidityProbe !== null;
    const offset = this.deps.barTurnOffsetMs;
    const wanted = scheduleTag(SCHEDULE_VERSION, offset, probing ? 1 : 0);
    const version = await this.ctx.state.get("schedule", z.number());
    if (version === wanted) return;
    const now = this.ctx.clock.now();
    this.ctx.reminders.set("bar", { dueAt: nextBarTurn(now, offset), periodMs: HOUR });
    if (probing) this.ctx.reminders.set("liquidity", { dueInMs: 0, periodMs: MINUTE });
    else {
      this.ctx.reminders.delete("liquidity");
      // A depth measured in an earlier live run must not stand in replay (DECISIONS 7).
      this.ctx.state.delete("liquidity");
    }
    this.ctx.state.set("schedule", wanted);
  }

  /**
   * The current slot's verdict and council session, made now if their actors' turns have not run
   * yet (their turns are due a minute before this one, turn-order.ts; on a Dapr survivor taking a
   * killed replica's actors over they can run later). A call that fails is logged and the turn
   * reads what is stored, as it did before it asked.
   */
  async #rulingsFirst(asset: Asset): Promise<void> {
    try {
      await this.ctx.proxy(VerdictActor, asset).refresh();
      if (isCouncilAsset(asset)) await this.ctx.proxy(CouncilActor, asset).refresh();
    } catch (err) {
      this.ctx.logger.warn({ err: String(err), asset }, "the close's ruling could not be made first; the trader reads the newest stored one");
    }
  }

  override async receiveReminder(name: string): Promise<void> {
    if (name === "bar") await this.step();
    else if (name === "liquidity") await this.#probeLiquidity();
  }

  /** Applies every closed bar not applied yet; returns how many. Public so operators and tests can nudge it. */
  async step(): Promise<{ applied: number; status: string }> {
    const asset = this.asset;
    const now = this.ctx.clock.now();
    let state = (await this.ctx.state.get("ghost", ghostStateSchema)) ?? initialGhostState(asset, "live_paper");
    const committedUpTo = state.lastBarT;
    const liquidity = await this.liquidity();
    // The week of bars after the last one applied (bars closed by `upTo`), not the newest week.
    const upTo = state.lastBarT === null ? now : Math.min(now, state.lastBarT + (MAX_CATCH_UP_BARS + 1) * HOUR);
    const bars = this.deps.source.bars(asset, upTo, MAX_CATCH_UP_BARS).filter((b) => state.lastBarT === null || b.t > state.lastBarT);
    // The first turn starts with the newest bar: a trader launched today does not trade history.
    const todo = state.lastBarT === null ? bars.slice(-1) : bars;
    if (todo.length > 0 && this.deps.askRulingActors === true) await this.#rulingsFirst(asset);
    const closed: ClosedTrade[] = [];
    /** The open time of the bar each signal of this turn came from. */
    const barOf = new Map<GhostSignal, number>();
    let lastInput = null;
    const mark = todo.length === 0 ? null : periodMarkFor(asset, await this.deps.ledger.sprints());
    for (const bar of todo) {
      state = atSprintOf(state, mark, bar.t);
      const input = await this.deps.source.input(asset, bar, liquidity);
      const result = stepGhost(state, input, ASSET_RULES[asset], this.deps.costs);
      state = result.state;
      closed.push(...result.closed);
      for (const signal of result.signals) barOf.set(signal, bar.t);
      lastInput = input;
    }
    if (todo.length === 0) return { applied: 0, status: ghostStatus(state) };
    // Read before this turn writes: bars the stored step already covers were applied by a turn
    // that stored them and then failed to commit (store or sidecar lost between the two writes).
    // A stored status that does not read back must not stop the trader: this turn rewrites it.
    const stored = await this.deps.ledger.snapshotsChecked(asset);
    if (stored.unreadable.length > 0) this.ctx.logger.warn({ asset }, "stored Ghost Trader status does not read back; this turn rewrites it");
    const storedUpTo = stored.snapshots[0]?.barT ?? null;
    const superseded = storedUpTo !== null && committedUpTo !== null && storedUpTo > committedUpTo ? await this.#superseded(state, committedUpTo, closed) : [];

    // Ledger first, then the events: a reader told of an EXIT finds the trade already stored.
    // Trades and status go together, so no reader sees a closed trade beside its open position.
    await this.deps.ledger.saveStep(closed, {
      asset,
      at: now,
      barT: state.lastBarT,
      status: ghostStatus(state),
      position: state.position,
      gates: state.lastGates,
      liquidity,
      price: lastInput?.candle.c ?? null,
      rsi1h: lastInput?.indicators.rsi1h ?? null,
      ema200: lastInput?.indicators.ema200 ?? null,
      regime: lastInput?.regime?.regime ?? null,
    }, superseded);
    for (const s of state.outbox) {
      const { at: _at, ...data } = s;
      // A signal of a bar that a failed turn had stored is that turn's, announced late: it carries
      // the bar's close, when that turn ran (DECISIONS 7: "retries carry the original"), so a
      // subscriber does not take an hour-old entry for one made now. First emissions: now.
      const bar = barOf.get(s);
      const retried = bar !== undefined && storedUpTo !== null && bar <= storedUpTo;
      await this.ctx.publish("ghost.signal", data as unknown as Json, retried ? { at: bar + HOUR } : undefined);
    }
    // The actor outbox commits with this state, so the domain outbox is acknowledged at once.
    state = ackSignals(state);
    this.ctx.state.set("ghost", state as unknown as Json);
    if (closed.length > 0) this.ctx.logger.info({ asset, closed: closed.length }, "ghost trades closed");
    return { applied: todo.length, status: ghostStatus(state) };
  }

  /**
   * Trades a failed turn stored on bars after `committedUpTo` that this turn, stepping the same
   * bars again, did not close: its inputs differed (a depth probe answered in between, a live bar
   * was revised), so its trades differ. Left in the ledger they would be trades the trader never
   * made: P&L without equity behind it, or a position shown closed while the status holds it open.
   */
  async #superseded(state: GhostState, committedUpTo: number, closed: readonly ClosedTrade[]): Promise<string[]> {
    const { asset, origin } = state;
    const again = new Set(closed.map((t) => t.id));
    const { trades } = await this.deps.ledger.closedChecked(asset);
    const ids = trades.filter((t) => t.origin === origin && exitBarOf(t) > committedUpTo && !again.has(t.id)).map((t) => t.id);
    if (ids.length > 0) this.ctx.logger.warn({ asset, trades: ids }, "trades stored by a failed turn were not made again; they leave the ledger");
    return ids;
  }

  /**
   * The depth reading the gates and the TAO council use: the last live probe's, or (replay) none.
   * Public so the TAO council reads the same figure (LIQUIDITY_RISK) from the actor that owns it.
   */
  async liquidity(): Promise<LiquidityView> {
    if (this.deps.liquidityProbe === null) return REPLAY_LIQUIDITY;
    const stored = await this.ctx.state.get("liquidity", liquiditySchema);
    return stored === undefined ? UNMEASURED_LIVE : { ...stored, live: true };
  }

  async #probeLiquidity(): Promise<void> {
    const probe = this.deps.liquidityProbe;
    if (probe === null) return;
    let depth: number | null = null;
    let failure: string | null = null;
    try {
      depth = await probe(this.asset);
    } catch (err) {
      failure = err instanceof Error ? err.message : String(err);
      this.ctx.logger.debug({ err }, "liquidity probe failed");
    }
    // Every minute while the exchange is down would be 1,440 warnings a day per trader.
    await noteOutage(this.ctx, {
      key: "probeFailingSince",
      at: this.ctx.clock.now(),
      ok: failure === null,
      started: `liquidity probe failing: ${this.asset} entries wait (gate 0 shut)`,
      ended: `liquidity probe answering again: ${this.asset}`,
      fields: failure === null ? {} : { err: failure },
    });
    const { status, depthUsd } = liquidityFromDepth(this.asset, depth);
    this.ctx.state.set("liquidity", { status, depthUsd });
  }
}
