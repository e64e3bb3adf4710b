import type { Logger } from "../logging/logger.js";
import { ReplayMarketClock } from "../runtime/clocks/market-clock.js";
import type { DaprActorHost } from "../runtime/dapr/dapr-host.js";
import type { ActorHost } from "../runtime/actor-host.js";
import { MarketDataActor } from "../actors/market-data-actor.js";
import type { Capability, CapabilityContext } from "./capability.js";
import type { Market } from "./open-market.js";
import type { OpenedActors } from "./open-actors.js";
import type { ReplayClockMembership } from "./replay-clock-membership.js";
import { warmUp } from "./warm-up.js";
import { warmUpThroughLocalHost } from "./dapr-warm-up.js";
import { startCapabilities } from "./start-capabilities.js";
import { retryUntilStopped } from "./start-up-retry.js";

/** What a Dapr replica's replay start works with. */
export interface DaprReplayStart {
  readonly market: Market;
  readonly clock: ReplayMarketClock;
  readonly dapr: DaprActorHost;
  readonly capabilities: readonly Capability[];
  readonly deps: CapabilityContext;
  readonly membership: ReplayClockMembership;
  readonly logger: Logger;
  /** The service stopping: the start ends at its next step. */
  readonly stop: AbortSignal;
  /** Told whether each attempt to ensure the schedules succeeded (readiness reads it). */
  readonly attempted: (ok: boolean) => void;
}

/**
 * `startDaprReplay` until it has run through: a replica whose start failed (a store error
 * outside the membership's own retries) tries again instead of running a market clock of its
 * own, which would answer from another market instant than the cluster for as long as it runs.
 */
export async function joinDaprReplay(start: DaprReplayStart): Promise<void> {
  const { clock, capabilities, deps, logger, stop, attempted } = start;
  await retryUntilStopped(
    () => startDaprReplay(start),
    stop,
    async ({ err, attempt }) => {
      logger.error({ err, attempt }, "joining the cluster's replay clock failed; trying again");
      if (clock.warmingUp) return "try-again";
      // The clock runs already: only the schedules are left to ensure.
      await startCapabilities(capabilities, deps, logger, stop, attempted);
      return "stop-trying";
    },
  );
}

/**
 * Replay on a Dapr cluster (issue 17 item 7). The replica that holds the cluster's clock resumes
 * the cluster where its recording stopped, or, on a fresh cluster, warms it up the way a local
 * start does (see dapr-warm-up.ts) and sets the clock running at REPLAY_START; the others wait for
 * the clock and join it. Schedules are ensured only on a running clock: Dapr's reminders must not
 * fire on actors the warm-up is still building.
 */
async function startDaprReplay(start: DaprReplayStart): Promise<void> {
  const { capabilities, deps, membership, logger, stop, attempted } = start;
  const cancelled = (): boolean => stop.aborted;
  const role = await membership.enter(cancelled);
  if (role === "cancelled") return;
  if (role === "founder") {
    await foundTheCluster(start);
    if (cancelled()) return;
    await membership.release(cancelled);
  }
  if (cancelled()) return;
  await startCapabilities(capabilities, deps, logger, stop, attempted);
}

/**
 * The founder's part of a Dapr replay start, run while it holds the cluster's clock: resume where
 * the cluster's recording stopped, or warm the cluster up. A failure before market time moved (a
 * daprd that answers nothing for its minute, a store error while the warm-up's actors start) is
 * tried again, still holding the clock, until it goes through or the service stops: releasing the
 * clock there ran the whole cluster from the first hour of the warm-up span, on wall time and
 * with no history, while every replica answered ready. A failure after the fast-forward began is
 * not tried again (the store holds part of its history, the actors' state lived in this process's
 * memory): it is logged and the clock runs from where it stopped.
 */
async function foundTheCluster(start: DaprReplayStart): Promise<void> {
  const { market, clock, dapr, capabilities, deps, logger, stop, attempted } = start;
  let from = clock.now();
  await retryUntilStopped(
    async () => {
      from = clock.now();
      const recordedUpTo = await recordedPosition(dapr, capabilities);
      if (recordedUpTo !== null) {
        if (recordedUpTo > clock.now()) clock.advanceTo(recordedUpTo);
        logger.info({ market: new Date(clock.now()).toISOString() }, "the cluster resumes where its recording stopped");
      } else if (market.runFrom !== null) {
        const result = await warmUpThroughLocalHost({ capabilities, deps, clock, dapr, until: clock.warmUpEndsAt ?? clock.now(), logger, stop });
        if (result !== null) {
          logger.info(
            { from: new Date(result.from).toISOString(), to: new Date(result.to).toISOString(), steps: result.steps, wall_ms: result.wallMs, actors: result.actors, reminders: result.reminders, handover_ms: result.handoverMs },
            "cluster warm-up done",
          );
        }
      }
      attempted(true);
    },
    stop,
    ({ err, attempt, retryInMs }) => {
      if (clock.now() !== from) {
        logger.error({ err }, "cluster warm-up failed; the cluster's market time runs from where it stopped");
        return "stop-trying";
      }
      // Readiness says `startup: failed` until an attempt goes through, not a normal warm-up.
      attempted(false);
      logger.error({ err, attempt, retry_in_ms: retryInMs }, "cluster warm-up could not begin; trying again while holding the cluster's clock");
      return "try-again";
    },
  );
}

/**
 * Replay on the in-process host: resumes where a previous run of this store stopped, else warms
 * up over the span before REPLAY_START, then lets market time run.
 */
export async function startMarketTime(
  market: Market,
  actors: OpenedActors,
  capabilities: readonly Capability[],
  logger: Logger,
  stop: AbortSignal,
  membership: ReplayClockMembership | null,
  attempted: (ok: boolean) => void,
): Promise<void> {
  const cancelled = (): boolean => stop.aborted;
  const clock = market.clock;
  if (!(clock instanceof ReplayMarketClock) || market.runFrom === null) return;
  const recordedUpTo = await positionOnceItAnswers(actors.host, capabilities, logger, stop, attempted);
  if (cancelled()) return;
  if (recordedUpTo !== null && recordedUpTo > clock.now()) clock.advanceTo(recordedUpTo);
  if (actors.kind === "local") {
    const result = await warmUp(clock, actors.host, clock.warmUpEndsAt ?? clock.now(), logger, stop);
    if (cancelled()) return;
    logger.info({ from: new Date(result.from).toISOString(), to: new Date(result.to).toISOString(), steps: result.steps, wall_ms: result.wallMs }, "warm-up done");
  }
  if (cancelled()) return;
  await startReplayClock(clock, membership, stop);
}

/**
 * `recordedPosition`, asked again while it fails (as the Dapr founder does): market time has not
 * moved yet, and letting it run on a failed read started the replay unwarmed, REPLAY_WARMUP_DAYS
 * before REPLAY_START, for as long as the service ran. Readiness says `startup: failed`
 * meanwhile. Null once the service stops.
 */
async function positionOnceItAnswers(
  host: ActorHost,
  capabilities: readonly Capability[],
  logger: Logger,
  stop: AbortSignal,
  attempted: (ok: boolean) => void,
): Promise<number | null> {
  const read = await retryUntilStopped(
    async () => {
      const position = await recordedPosition(host, capabilities);
      attempted(true);
      return position;
    },
    stop,
    ({ err, attempt, retryInMs }) => {
      attempted(false);
      logger.error({ err, attempt, retry_in_ms: retryInMs }, "reading where the recording stopped failed; trying again before market time runs");
      return "try-again";
    },
  );
  return read.done ? read.value : null;
}

/** How far market time has been recorded (where a restart resumes); null before any recording. */
function recordedPosition(host: ActorHost, capabilities: readonly Capability[]): Promise<number | null> {
  return capabilities.some((c) => c.name === "market-data") ? host.proxy(MarketDataActor, MarketDataActor.ID).position() : Promise.resolve(null);
}

/**
 * Joins the cluster's replay clock (another process may run on the same store); the membership
 * asks a store that does not answer again until it does or the service stops. Without a
 * membership (none configured) the clock simply runs.
 */
export async function startReplayClock(clock: ReplayMarketClock, membership: ReplayClockMembership | null, stop: AbortSignal): Promise<void> {
  if (membership === null) clock.run();
  else await membership.join(() => stop.aborted);
}
