import type { IncomingMessage, Server, ServerResponse } from "node:http";
import { setTimeout as wait } from "node:timers/promises";
import type { Config } from "../config/env.js";
import { createLogger, type Logger } from "../logging/logger.js";
import { openStore } from "../store/open-store.js";
import type { Store } from "../store/store.js";
import { wallClock, type Clock } from "../runtime/clocks/clock.js";
import { ReplayClockMembership } from "./replay-clock-membership.js";
import { KeyVerifier } from "../application/key-verifier.js";
import { UsageLimiter } from "../application/usage-limiter.js";
import { KeyIssuer } from "../application/key-issuer.js";
import { KeyLifecycle } from "../application/key-lifecycle.js";
import { NewsletterService, type NewsletterOptions } from "../application/newsletter.js";
import { logMailer, smtpMailer } from "../notify/mailer.js";
import { publicBaseUrlWarning } from "../config/public-base-url.js";
import { logOwnerNotifier, webhookOwnerNotifier } from "../notify/owner-notifier.js";
import { createApp, type BuiltApp, type RouteSet } from "../http/app.js";
import { bindServer, createLimitedServer } from "../http/listen.js";
import { metricsListener } from "../http/metrics-server.js";
import { tierLimitsFrom } from "../http/app-deps.js";
import type { ReadinessCheck } from "../http/schemas/health.js";
import type { MarketFeed } from "../feeds/market-feed.js";
import { openMarket, type LiveSources, type Market } from "./open-market.js";
import { ReplayMarketClock } from "../runtime/clocks/market-clock.js";
import { openActors, type OpenedActors } from "./open-actors.js";
import { actorStallMs } from "./actor-stall.js";
import { CAPABILITIES } from "./capability-list.js";
import type { Capability, CapabilityContext } from "./capability.js";
import { warmUp } from "./warm-up.js";
import { openQuotaCounting } from "./quota-counting.js";
import { MarketDataActor } from "../actors/market-data-actor.js";
import type { DaprActorHost } from "../runtime/dapr/dapr-host.js";
import type { ActorHost } from "../runtime/actor-host.js";
import { warmUpThroughLocalHost } from "./dapr-warm-up.js";
import { MAX_SLIDING_WINDOW_MS } from "../application/ip-limiter.js";
import { within } from "../runtime/activation-table.js";

export interface Service {
  readonly config: Config;
  readonly logger: Logger;
  readonly store: Store;
  readonly built: BuiltApp;
  readonly deps: CapabilityContext;
  readonly actors: OpenedActors;
  /**
   * Starts the actors and listening; resolves with the bound port once HTTP is up. Warm-up
   * (replay) then runs in the background: `warmedUp` resolves when market time runs.
   */
  listen(): Promise<number>;
  /** The port /metrics listens on once `listen` resolved (METRICS_PORT), else null. */
  metricsPort(): number | null;
  readonly warmedUp: Promise<void>;
  /** Drains HTTP, finishes background work, closes the store. Idempotent. */
  stop(): Promise<void>;
}

export interface ServiceOverrides {
  readonly logger?: Logger;
  readonly wallClock?: Clock;
  readonly newsletter?: NewsletterOptions;
  /** Extra route sets mounted beside the capabilities' (tests and benchmarks probe the pipeline). */
  readonly routeSets?: readonly RouteSet[];
  /** An already loaded feed (tests share one replay dataset instead of parsing it per service). */
  readonly feed?: MarketFeed;
  /** MARKET_FEED=live: where the live adapters fetch from (tests point them at local servers). */
  readonly live?: LiveSources;
  /** The capabilities to run (default: all of CAPABILITIES; tests of the foundation run fewer). */
  readonly capabilities?: readonly Capability[];
}

/** The composition root: the one place adapters are chosen and wired. */
export async function buildService(config: Config, overrides: ServiceOverrides = {}): Promise<Service> {
  const logger = overrides.logger ?? createLogger(config.LOG_LEVEL);
  const clock = overrides.wallClock ?? wallClock;
  const store = await openStore(config.STORE_URL);
  const market = await openMarket(config, clock, overrides.feed, overrides.live, {
    log: store.liveObservations,
    warn: (message, err) => logger.warn({ err: err instanceof Error ? err.message : String(err) }, message),
  }, logger);
  const mailer = config.SMTP_URL ? smtpMailer(config.SMTP_URL, config.MAIL_FROM) : logMailer(logger);
  const unreachableLinks = publicBaseUrlWarning(config);
  if (unreachableLinks !== null) logger.warn({ public_base_url: config.PUBLIC_BASE_URL }, unreachableLinks);
  const owner = config.OWNER_NOTIFY_URL ? webhookOwnerNotifier(config.OWNER_NOTIFY_URL) : logOwnerNotifier(logger);
  const newsletter = new NewsletterService(store.newsletter, store.counters, mailer, owner, clock, logger, {
    ...overrides.newsletter,
    publicBaseUrl: config.PUBLIC_BASE_URL,
  });
  const actors = openActors(config, store, market.clock, clock, logger);
  // Per service, never per module: two services in one process (tests) lease independently.
  const quotaCounting = openQuotaCounting(store, clock, logger);
  // Readiness (GET /v1/health/ready): start-up done, warm-up included, and no actor turn stuck.
  // `startup` is pending through start-up and warm-up, failed while a failed attempt waits for its
  // retry (an operator must tell a normal warm-up from a start-up that keeps failing).
  let startedUp = false;
  let startupFailing = false;
  const startAttempted = (ok: boolean) => (startupFailing = !ok);
  const stallMs = actorStallMs(config);
  const readiness = (): Record<string, ReadinessCheck> => ({
    startup: startedUp ? "ok" : startupFailing ? "failed" : "pending",
    actors: actors.host.oldestTurnMs() < stallMs ? "ok" : "failed",
  });
  const deps: CapabilityContext = {
    config,
    store,
    logger,
    wallClock: clock,
    keyVerifier: new KeyVerifier(store.apiKeys, clock),
    limiter: new UsageLimiter(quotaCounting.counter, clock),
    keyIssuer: new KeyIssuer(store.apiKeys, clock),
    keyLifecycle: new KeyLifecycle(),
    newsletter,
    tierLimits: tierLimitsFrom(config),
    feed: market.feed,
    marketClock: market.clock,
    host: actors.host,
    bus: actors.bus,
    marketPollers: market.pollers,
    orderBook: market.orderBook,
    barSettleMs: market.barSettleMs,
    readiness,
  };
  const capabilities = overrides.capabilities ?? CAPABILITIES;
  for (const capability of capabilities) capability.registerActors(deps);
  const capabilityRoutes: RouteSet[] = capabilities.map((c) => () => c.routes(deps));
  const built = createApp(deps, [...capabilityRoutes, ...(overrides.routeSets ?? [])], actors.routers);
  let server: Server | undefined;
  let metricsServer: Server | undefined;
  let metricsPort: number | null = null;
  let stopping: Promise<void> | undefined;
  // Aborted by stop(): a start-up or warm-up under way stops at its next step, and the warm-up's
  // long turns give up (see warmUp).
  const stopRequested = new AbortController();
  const cancelled = (): boolean => stopRequested.signal.aborted;
  // The cluster's one replay clock (issue 17): joined once the warm-up is over.
  const membership = market.clock instanceof ReplayMarketClock ? new ReplayClockMembership(store.replayClock, market.clock, clock, logger) : null;
  let markWarm: () => void = () => undefined;
  const warmedUp = new Promise<void>((resolve) => (markWarm = resolve));
  let warming: Promise<void> = Promise.resolve();
  const sweep = setInterval(() => {
    store.counters.sweepExpired(clock.now()).catch((err: unknown) => logger.warn({ err: String(err) }, "counter sweep failed"));
    store.responseCache.sweepExpired(clock.now()).catch((err: unknown) => logger.warn({ err: String(err) }, "response cache sweep failed"));
    store.slidingWindows.sweepBefore(clock.now() - MAX_SLIDING_WINDOW_MS).catch((err: unknown) => logger.warn({ err: String(err) }, "sliding-window sweep failed"));
  }, 60_000);
  sweep.unref();

  return {
    config,
    logger,
    store,
    built,
    deps,
    actors,
    warmedUp,
    metricsPort: () => metricsPort,
    async listen() {
      // Issue 19 item 7: bind first. Resuming deliveries, reminders or e-mails acts on the
      // shared store, so an instance that cannot serve (EADDRINUSE) must fail before any of it.
      // On Dapr this order is needed anyway: daprd hosts our actor types only after it has read
      // GET /dapr/config from this app, so the app listens before capabilities call actors.
      const api = createLimitedServer(config, built.app);
      const port = await bindServer(api, config.PORT, config.HOST);
      server = api;
      if (config.METRICS_PORT !== undefined) {
        const m = createLimitedServer(config, metricsListener);
        try {
          metricsPort = await bindServer(m, config.METRICS_PORT, config.METRICS_HOST);
        } catch (err) {
          await new Promise<void>((resolve) => api.close(() => resolve()));
          server = undefined;
          throw err;
        }
        metricsServer = m;
      }
      newsletter.start();
      await actors.host.start();
      if (actors.kind === "dapr" && membership !== null && market.clock instanceof ReplayMarketClock) {
        // A Dapr replay cluster: the clock comes first, since the schedules run on it. One
        // replica warms the whole cluster up (or resumes it) while the others wait; each then
        // ensures its schedules on the running clock.
        const clusterClock = market.clock;
        warming = joinDaprReplay({ market, clock: clusterClock, dapr: actors.host, capabilities, deps, membership, logger, stop: stopRequested.signal, attempted: startAttempted })
          .then(() => {
            startedUp = !cancelled();
            markWarm();
          });
        return port;
      }
      // Every schedule at once: each ensureScheduled is idempotent, and one actor held up by a
      // placement rebalance must not hold up the others (issue 17: sequential start-ups stalled).
      await startCapabilities(capabilities, deps, logger, stopRequested.signal, startAttempted);
      if (cancelled()) throw new Error("the service was stopped during its start-up");
      warming = startMarketTime(market, actors, capabilities, logger, stopRequested.signal, membership, startAttempted)
        .catch(async (err: unknown) => {
          logger.error({ err }, "warm-up failed; market time runs from where it stopped");
          if (market.clock instanceof ReplayMarketClock && market.clock.warmingUp) await startReplayClock(market.clock, membership, stopRequested.signal);
        })
        .then(() => {
          startedUp = !cancelled();
          markWarm();
        });
      return port;
    },
    stop() {
      stopping ??= (async () => {
        // One budget for every step: each step's own limit, run in turn, added up past DECISIONS
        // 1's 10 s (6 s withdraw + 8 s host drain on Dapr), where main.ts force-exits with 1.
        const deadline = Date.now() + STOP_BUDGET_MS;
        const left = (): number => Math.max(0, deadline - Date.now());
        // First of all: a warm-up (or a wait for the cluster's clock) stops at its next step.
        stopRequested.abort();
        clearInterval(sweep);
        // On Dapr the actors leave first, while this app still answers daprd's deactivations:
        // daprd, asked to shut down, withdraws our actor types and placement moves them.
        if (actors.kind === "dapr") await actors.host.withdraw(Math.min(DAPR_WITHDRAW_MS, left()));
        if (metricsServer) {
          const m = metricsServer;
          await new Promise<void>((resolve) => {
            m.close(() => resolve());
            m.closeAllConnections();
          });
        }
        if (server) {
          const s = server;
          const closed = new Promise<void>((resolve) => {
            // Keep-alive clients that go on sending (daprd delivers reminders on its pooled
            // connections) would hold close() open: answers during the drain end their connection.
            s.on("request", (_req: IncomingMessage, res: ServerResponse) => res.setHeader("connection", "close"));
            s.close(() => resolve());
            s.closeIdleConnections();
          });
          // A request queued behind a long turn would hold close() for as long as the turn runs.
          if ((await within(closed, Math.max(0, left() - HOST_DRAIN_RESERVE_MS))) === "timeout") s.closeAllConnections();
        }
        // No request is in flight any more: unused leased calls go back to the shared windows.
        await quotaCounting.close().catch((err: unknown) => logger.warn({ err: String(err) }, "giving back leased quota calls failed"));
        // A start-up waiting on a sidecar ends at its next retry once the host stops; never past the budget.
        await within(warming, left());
        membership?.stop();
        // Turns in flight finish and commit before the store they write to closes, within what
        // is left of the budget less a moment for the store to close.
        await actors.host.shutdown(Math.max(STORE_CLOSE_RESERVE_MS, left() - STORE_CLOSE_RESERVE_MS));
        await market.stop();
        await newsletter.stop(Math.max(0, left() - STORE_CLOSE_RESERVE_MS));
        mailer.close();
        await store.close();
      })();
      return stopping;
    },
  };
}

/**
 * Runs every capability's start, again after a failure (a schedule call that outlived its retries
 * while placement settled), until all succeeded or the service stops. Each start is idempotent.
 * Meanwhile /v1/health/ready answers 503 (startup) and the log says why, instead of a crash or
 * a silent stall.
 */
async function startCapabilities(
  capabilities: readonly Capability[],
  deps: CapabilityContext,
  logger: Logger,
  stop: AbortSignal,
  attempted: (ok: boolean) => void = () => {},
): Promise<void> {
  for (let attempt = 1; !stop.aborted; attempt++) {
    try {
      await Promise.all(capabilities.map((capability) => capability.start(deps)));
      attempted(true);
      return;
    } catch (err) {
      if (stop.aborted) return;
      attempted(false);
      logger.warn({ err, attempt }, "capability start-up failed; trying again");
      await pauseBeforeRetry(attempt, stop);
    }
  }
}

/** The wait before another attempt at a start-up step: a second more per attempt, at most 10 s. */
function startRetryDelayMs(attempt: number): number {
  return Math.min(1_000 * attempt, 10_000);
}

/**
 * Waits `startRetryDelayMs(attempt)`, or less: it ends at once when the service stops, so a stop
 * never waits out a retry's delay (the whole stop has 9 s) and no attempt starts after it.
 */
function pauseBeforeRetry(attempt: number, stop: AbortSignal): Promise<void> {
  return wait(startRetryDelayMs(attempt), undefined, { signal: stop }).then(
    () => undefined,
    () => undefined,
  );
}

/**
 * How long a stopping Dapr replica waits for its daprd (asked to shut down) to deactivate its
 * actors: within DECISIONS 1's 10 s for the whole shutdown.
 */
const DAPR_WITHDRAW_MS = 6_000;

/** The whole stop's budget: under main.ts's 10 s forced exit, with a second to spare. */
const STOP_BUDGET_MS = 9_000;
/** Kept from the HTTP drain for the actor host's own (turns may be finishing their commits). */
const HOST_DRAIN_RESERVE_MS = 2_000;
/** Kept from the actor host's drain for closing the store and the mailer. */
const STORE_CLOSE_RESERVE_MS = 500;

/** What a Dapr replica's replay start works with. */
interface DaprReplayStart {
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
  for (let attempt = 1; !stop.aborted; attempt++) {
    const from = clock.now();
    try {
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
      return;
    } catch (err) {
      if (stop.aborted) return;
      if (clock.now() !== from) {
        logger.error({ err }, "cluster warm-up failed; the cluster's market time runs from where it stopped");
        return;
      }
      // Readiness says `startup: failed` until an attempt goes through, not a normal warm-up.
      attempted(false);
      logger.error({ err, attempt, retry_in_ms: startRetryDelayMs(attempt) }, "cluster warm-up could not begin; trying again while holding the cluster's clock");
      await pauseBeforeRetry(attempt, stop);
    }
  }
}

/**
 * `startDaprReplay` until it has run through: a replica whose start failed (a store error
 * outside the membership's own retries) tries again instead of running a market clock of its
 * own, which would answer from another market instant than the cluster for as long as it runs.
 */
async function joinDaprReplay(start: DaprReplayStart): Promise<void> {
  const { clock, capabilities, deps, logger, stop, attempted } = start;
  for (let attempt = 1; !stop.aborted; attempt++) {
    try {
      await startDaprReplay(start);
      return;
    } catch (err) {
      if (stop.aborted) return;
      logger.error({ err, attempt }, "joining the cluster's replay clock failed; trying again");
      if (!clock.warmingUp) {
        // The clock runs already: only the schedules are left to ensure.
        await startCapabilities(capabilities, deps, logger, stop, attempted);
        return;
      }
      await pauseBeforeRetry(attempt, stop);
    }
  }
}

/**
 * Replay on the in-process host: resumes where a previous run of this store stopped, else warms
 * up over the span before REPLAY_START, then lets market time run.
 */
async function startMarketTime(
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
 * `recordedPosition`, asked again after 1, 2, … up to 10 s while it fails (as the Dapr founder
 * does): market time has not moved yet, and letting it run on a failed read started the replay
 * unwarmed, REPLAY_WARMUP_DAYS before REPLAY_START, for as long as the service ran. Readiness
 * says `startup: failed` meanwhile. Null once the service stops.
 */
async function positionOnceItAnswers(
  host: ActorHost,
  capabilities: readonly Capability[],
  logger: Logger,
  stop: AbortSignal,
  attempted: (ok: boolean) => void,
): Promise<number | null> {
  for (let attempt = 1; !stop.aborted; attempt++) {
    try {
      const position = await recordedPosition(host, capabilities);
      attempted(true);
      return position;
    } catch (err) {
      if (stop.aborted) break;
      attempted(false);
      logger.error({ err, attempt, retry_in_ms: startRetryDelayMs(attempt) }, "reading where the recording stopped failed; trying again before market time runs");
      await pauseBeforeRetry(attempt, stop);
    }
  }
  return null;
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
async function startReplayClock(clock: ReplayMarketClock, membership: ReplayClockMembership | null, stop: AbortSignal): Promise<void> {
  if (membership === null) clock.run();
  else await membership.join(() => stop.aborted);
}
