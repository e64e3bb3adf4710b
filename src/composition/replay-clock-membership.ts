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
  ) {}

  async join(): Promise<ReplayAnchor> {
    const now = this.wall.now();
    const candidate: ReplayAnchor = { wallAt: now, marketAt: this.clock.now(), speed: this.clock.rate, epoch: randomUUID(), heartbeatAt: now };
    const anchor = await this.repo.claim(candidate, now - ANCHOR_STALE_MS);
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
    this.timer = setInterval(() => {
      this.repo.beat(anchor.epoch, this.wall.now()).catch((err: unknown) => this.logger.warn({ err: String(err) }, "replay clock heartbeat failed"));
    }, BEAT_MS);
    this.timer.unref();
    return anchor;
  }

  get current(): ReplayAnchor | null {
    return this.anchor;
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }
}
