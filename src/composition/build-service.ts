import type { IncomingMessage, Server, ServerResponse } from "node:http";
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
import { KeyOwnerMail } from "../application/key-owner-mail.js";
import { hashedMailboxTag } from "../application/mail-send-windows.js";
import { personalDataStore } from "./personal-data.js";
import { errorSummary } from "../logging/error-summary.js";
import { logMailer, smtpMailer } from "../notify/mailer.js";
import { publicBaseUrlWarning } from "../config/public-base-url.js";
import { logOwnerNotifier, webhookOwnerNotifier } from "../notify/owner-notifier.js";
import { createApp, type BuiltApp, type RouteSet } from "../http/app.js";
import { bindServer, createLimitedServer } from "../http/listen.js";
import { metricsListener } from "../http/metrics-server.js";
import { tierLimitsFrom } from "../http/app-deps.js";
import type { ReadinessCheck } from "../http/schemas/health.js";
import type { MarketFeed } from "../feeds/market-feed.js";
import { openMarket, type LiveSources } from "./open-market.js";
import { ReplayMarketClock } from "../runtime/clocks/market-clock.js";
import { openActors, type OpenedActors } from "./open-actors.js";
import { actorStallMs } from "./actor-stall.js";
import { CAPABILITIES } from "./capability-list.js";
import type { Capability, CapabilityContext } from "./capability.js";
import { openQuotaCounting } from "./quota-counting.js";
import { MAX_SLIDING_WINDOW_MS } from "../application/ip-limiter.js";
import { within } from "../runtime/activation-table.js";
import { startCapabilities } from "./start-capabilities.js";
import { joinDaprReplay, startMarketTime, startReplayClock } from "./replay-start.js";

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
  const personal = personalDataStore(await openStore(config.STORE_URL), config, logger);
  const store = personal.store;
  const market = await openMarket(config, clock, overrides.feed, overrides.live, {
    log: store.liveObservations,
    warn: (message, err) => logger.warn({ err: err instanceof Error ? err.message : String(err) }, message),
    holds: store.providerHolds,
  }, logger);
  const mailer = config.SMTP_URL ? smtpMailer(config.SMTP_URL, config.MAIL_FROM) : logMailer(logger);
  const unreachableLinks = publicBaseUrlWarning(config);
  if (unreachableLinks !== null) logger.warn({ public_base_url: config.PUBLIC_BASE_URL }, unreachableLinks);
  const owner = config.OWNER_NOTIFY_URL ? webhookOwnerNotifier(config.OWNER_NOTIFY_URL) : logOwnerNotifier(logger);
  const newsletter = new NewsletterService(store.newsletter, store.counters, mailer, owner, clock, logger, {
    ...(personal.tag === undefined ? {} : { mailboxTag: personal.tag }),
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
    ...(personal.tag === undefined ? {} : { clientTag: personal.tag }),
    keyOwnerMail: new KeyOwnerMail(store.apiKeys, store.counters, mailer, clock, logger, personal.tag ?? hashedMailboxTag),
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
      // Before the sweep, so the welcomes it resumes are found under the key that seals now. A
      // row it could not move is still found where it is, so a failure here only delays the move.
      await personal.reseal().catch((err: unknown) => logger.error({ err: errorSummary(err) }, "personal data not sealed again at start"));
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
