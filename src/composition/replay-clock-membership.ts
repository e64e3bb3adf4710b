import { randomUUID } from "node:crypto";
import type { Clock } from "../runtime/clocks/clock.js";
import type { ReplayMarketClock } from "../runtime/clocks/market-clock.js";
import type { Logger } from "../logging/logger.js";
import type { ReplayAnchor, ReplayClockRepository } from "../store/ports/replay-clock.js";

/** A running replica refreshes the anchor's heartbeat this often. */
const BEAT_MS = 5_000;
/**
 * An anchor nobody refreshed for this long belongs to a cluster that is down: the next replica to
 * start anchors anew from where its store's recording stopped (so a restart resumes, as before).
 */
export const ANCHOR_STALE_MS = 15_000;

/**
 * This replica's part in the cluster's one replay clock: it joins the stored anchor (or founds
 * one from its own position when none is in use) and keeps it alive while it runs. Market time
 * is then the same on every replica, computed from each one's wall clock (synchronised by NTP, as
 * any cluster's are), with no store read per use.
 */
export class ReplayClockMembership {
  private timer: NodeJS.Timeout | undefined;
  private anchor: ReplayAnchor | null = null;

  constructor(
    private readonly repo: ReplayClockRepository,
    private readonly clock: ReplayMarketClock,
    private readonly wall: Clock,
    private readonly logger: Logger,
    private readonly beatMs: number = BEAT_MS,
  ) {}

  /**
   * A store that does not answer is asked again (every `pollMs`) until it does or `cancelled()`:
   * a replica that set its own clock running instead would answer from another market instant
   * than the others for as long as it runs. Null: cancelled before it could join.
   */
  async join(cancelled: () => boolean = () => false, pollMs = 500): Promise<ReplayAnchor | null> {
    if (cancelled()) return null;
    const epoch = randomUUID();
    const claimed = await this.claimAnswered((now) => ({ wallAt: now, marketAt: this.clock.now(), speed: this.clock.rate, epoch, heartbeatAt: now }), cancelled, pollMs);
    if (claimed === null) return null;
    const { candidate, anchor } = claimed;
    const position = this.clock.now();
    this.clock.runFrom(anchor);
    this.anchor = anchor;
    const founded = anchor.epoch === candidate.epoch;
    const joinedAt = this.clock.now();
    this.logger.info(
      { epoch: anchor.epoch, founded, market: new Date(joinedAt).toISOString(), speed: anchor.speed },
      founded ? "replay clock anchored here" : "joined the cluster's replay clock",
    );
    if (!founded && joinedAt < position) {
      this.logger.warn({ position: new Date(position).toISOString(), cluster: new Date(joinedAt).toISOString() }, "the cluster's replay clock is behind this replica's warm-up (REPLAY_START differs?)");
    }
    if (!founded && anchor.speed !== candidate.speed) {
      this.logger.warn({ configured: candidate.speed, cluster: anchor.speed }, "REPLAY_SPEED differs from the cluster's: following the cluster");
    }
    this.startBeating(anchor.epoch);
    return anchor;
  }

  /**
   * Dapr replicas start here (issue 17 item 7): the first one holds the cluster's clock (an
   * anchor of speed 0, kept alive by heartbeats) while it warms the cluster up, and says so by
   * resolving "founder"; it then calls `release`. Others wait until the clock runs and join it
   * ("joined"). A founder that died mid-warm-up stops beating: after ANCHOR_STALE_MS the next
   * replica to look holds the clock instead and warms up itself. "cancelled": the service stopped.
   */
  async enter(cancelled: () => boolean, pollMs = 500): Promise<"founder" | "joined" | "cancelled"> {
    let waitingLogged = false;
    while (!cancelled()) {
      const epoch = randomUUID();
      const claimed = await this.claimAnswered((now) => ({ wallAt: now, marketAt: this.clock.now(), speed: 0, epoch, heartbeatAt: now }), cancelled, pollMs);
      if (claimed === null) break;
      const { candidate: held, anchor } = claimed;
      // Ours: just claimed, or held since an earlier attempt of this replica's start.
      if (anchor.epoch === held.epoch || (anchor.speed === 0 && anchor.epoch === this.anchor?.epoch)) {
        this.anchor = anchor;
        this.startBeating(anchor.epoch);
        this.logger.info({ epoch: anchor.epoch, market: new Date(anchor.marketAt).toISOString() }, "holding the cluster's replay clock to warm the cluster up");
        return "founder";
      }
      if (anchor.speed > 0) {
        this.follow(anchor);
        return "joined";
      }
      // The founder is warming the cluster up and says how far it has come: answer as of there,
      // as it does, rather than as of this replica's own unstarted position.
      this.clock.advanceTo(anchor.marketAt);
      if (!waitingLogged) this.logger.info({ epoch: anchor.epoch }, "another replica is warming the cluster up; waiting for its replay clock");
      waitingLogged = true;
      await new Promise((resolve) => setTimeout(resolve, pollMs));
    }
    return "cancelled";
  }

  /**
   * The founder's warm-up is over: the held anchor runs from this replica's position. When another
   * replica replaced it meanwhile (this one stalled past ANCHOR_STALE_MS), this one follows that
   * replica's clock instead, once it runs.
   */
  async release(cancelled: () => boolean): Promise<void> {
    const held = this.anchor;
    if (held === null || held.speed !== 0) throw new Error("release() without a held anchor");
    const running = await this.releaseAnchor(held.epoch, cancelled);
    if (running === "cancelled") return;
    if (running !== null) {
      this.clock.runFrom(running);
      this.anchor = running;
      this.logger.info({ epoch: running.epoch, market: new Date(running.marketAt).toISOString(), speed: running.speed }, "replay clock anchored here");
      return;
    }
    this.logger.warn({ epoch: held.epoch }, "another replica took the cluster's replay clock while this one warmed up; following it");
    this.stop();
    if ((await this.enter(cancelled)) === "founder") await this.release(cancelled);
  }

  /**
   * The anchor in force after claiming a candidate made by `make` at the wall time of the attempt
   * (see the port), with the candidate that was sent. A claim that went through but whose answer
   * was lost is still recognised as ours: every attempt's candidate has the same epoch. Null:
   * `cancelled()` before the store answered.
   */
  private claimAnswered(
    make: (now: number) => ReplayAnchor,
    cancelled: () => boolean,
    pollMs: number,
  ): Promise<{ readonly candidate: ReplayAnchor; readonly anchor: ReplayAnchor } | null> {
    return this.untilAnswered("reading the cluster's replay clock failed; trying again", cancelled, pollMs, async (now) => {
      const candidate = make(now);
      return { candidate, anchor: await this.repo.claim(candidate, now - ANCHOR_STALE_MS) };
    });
  }

  /**
   * Sets the held anchor running from this replica's position; null when another anchor replaced
   * it. The warm-up is done; only the release is left to do.
   */
  private async releaseAnchor(epoch: string, cancelled: () => boolean, pollMs = 500): Promise<ReplayAnchor | null | "cancelled"> {
    const released = await this.untilAnswered("setting the cluster's replay clock running failed; trying again", cancelled, pollMs, async (now) => {
      const running: ReplayAnchor = { wallAt: now, marketAt: this.clock.now(), speed: this.clock.rate, epoch, heartbeatAt: now };
      return { running: (await this.repo.release(running)) ? running : null };
    });
    return released === null ? "cancelled" : released.running;
  }

  /**
   * `call` (given the wall time of the attempt) until the store answers it; null when
   * `cancelled()` after a failure. A busy or unreachable store is asked again every `pollMs`,
   * never a reason to run a clock of our own: a replica on its own clock would answer from
   * another market instant than the cluster for as long as it runs. Only the first failure is
   * logged; a store that stays down would otherwise log twice a second.
   */
  private async untilAnswered<T>(failure: string, cancelled: () => boolean, pollMs: number, call: (now: number) => Promise<T>): Promise<T | null> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await call(this.wall.now());
      } catch (err) {
        if (cancelled()) return null;
        if (attempt === 1) this.logger.warn({ err: String(err) }, failure);
        await new Promise((resolve) => setTimeout(resolve, pollMs));
        if (cancelled()) return null;
      }
    }
  }

  private follow(anchor: ReplayAnchor): void {
    this.clock.runFrom(anchor);
    this.anchor = anchor;
    this.startBeating(anchor.epoch);
    this.logger.info({ epoch: anchor.epoch, market: new Date(this.clock.now()).toISOString(), speed: anchor.speed }, "joined the cluster's replay clock");
  }

  private startBeating(epoch: string): void {
    this.stop();
    this.timer = setInterval(() => {
      const now = this.wall.now();
      // While this replica holds the clock (warming up) its beat also says how far it has come.
      const beating = this.anchor?.speed === 0 ? this.repo.holdAt(epoch, now, this.clock.now()) : this.repo.beat(epoch, now);
      beating.catch((err: unknown) => this.logger.warn({ err: String(err) }, "replay clock heartbeat failed"));
    }, this.beatMs);
    this.timer.unref();
  }

  get current(): ReplayAnchor | null {
    return this.anchor;
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }
}
