/**
 * The one replay market clock of a cluster (issue 17): where market time stood at a wall
 * instant, and how fast it runs. Every replica that joins reads it, so all compute the same
 * market time from their (NTP-synchronised) wall clocks; no replica keeps a clock of its own.
 */
export interface ReplayAnchor {
  /** Wall time (ms since epoch) at which market time stood at `marketAt`. */
  readonly wallAt: number;
  readonly marketAt: number;
  /** Market milliseconds per wall millisecond; 0 while the cluster warms up (market time held). */
  readonly speed: number;
  /** Identifies one anchoring: a replica that re-anchors after the cluster was down makes a new one. */
  readonly epoch: string;
  /** Last wall time a running replica said the anchor was in use. */
  readonly heartbeatAt: number;
}

export interface ReplayClockRepository {
  current(): Promise<ReplayAnchor | null>;
  /**
   * Installs `candidate` when there is no anchor or the stored one's heartbeat is older than
   * `staleBefore` (every replica was down), atomically; returns the anchor in force afterwards.
   */
  claim(candidate: ReplayAnchor, staleBefore: number): Promise<ReplayAnchor>;
  /**
   * Sets anchor `running.epoch` running as `running` (a held anchor, speed 0, is a cluster whose
   * founding replica is still warming up); false when another anchor replaced it meanwhile.
   */
  release(running: ReplayAnchor): Promise<boolean>;
  /** Refreshes the heartbeat of anchor `epoch`; a replaced anchor is left alone. */
  beat(epoch: string, at: number): Promise<void>;
  /**
   * The founder's heartbeat while it warms the cluster up: refreshes held anchor `epoch` (speed 0)
   * and records how far its warm-up has come in `marketAt` (never back), so that the replicas
   * waiting for the clock answer as of that point, not as of their own unstarted position. A
   * running or replaced anchor is left alone.
   */
  holdAt(epoch: string, at: number, marketAt: number): Promise<void>;
}
