import type { Server } from "node:http";
import type { Config } from "../config/env.js";
import { createLogger, type Logger } from "../logging/logger.js";
import { openStore } from "../store/open-store.js";
import type { Store } from "../store/store.js";
import { wallClock, type Clock } from "../domain/time/clock.js";
import { KeyVerifier } from "../services/key-verifier.js";
import { KeyIssuer } from "../services/key-issuer.js";
import { NewsletterService, type NewsletterOptions } from "../services/newsletter.js";
import { logMailer, smtpMailer } from "../notify/mailer.js";
import { logOwnerNotifier, webhookOwnerNotifier } from "../notify/owner-notifier.js";
import { createApp, type BuiltApp, type RouteSet } from "../http/app.js";
import { tierLimitsFrom, type AppDeps } from "../http/app-deps.js";
import type { MarketFeed } from "../feeds/market-feed.js";
import { openMarket, type LiveSources } from "./open-market.js";
import { ReplayMarketClock } from "../domain/time/market-clock.js";
import { SignalRecorder, scheduleSignalRecording, type RecorderSchedule } from "../services/signal-recorder.js";

export interface Service {
  readonly config: Config;
  readonly logger: Logger;
  readonly store: Store;
  readonly built: BuiltApp;
  readonly deps: AppDeps;
  /** Starts listening; resolves with the bound port. */
  listen(): Promise<number>;
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
}

/** The composition root: the one place adapters are chosen and wired. */
export async function buildService(config: Config, overrides: ServiceOverrides = {}): Promise<Service> {
  const logger = overrides.logger ?? createLogger(config.LOG_LEVEL);
  const clock = overrides.wallClock ?? wallClock;
  const market = await openMarket(config, clock, overrides.feed, overrides.live);
  const store = await openStore(config.STORE_URL);
  const mailer = config.SMTP_URL ? smtpMailer(config.SMTP_URL, config.MAIL_FROM) : logMailer(logger);
  const owner = config.OWNER_NOTIFY_URL ? webhookOwnerNotifier(config.OWNER_NOTIFY_URL) : logOwnerNotifier(logger);
  const newsletter = new NewsletterService(store.newsletter, mailer, owner, clock, logger, overrides.newsletter);
  const deps: AppDeps = {
    config,
    store,
    logger,
    wallClock: clock,
    keyVerifier: new KeyVerifier(store.apiKeys, clock),
    keyIssuer: new KeyIssuer(store.apiKeys, clock),
    newsletter,
    tierLimits: tierLimitsFrom(config),
    feed: market.feed,
    marketClock: market.clock,
  };
  const built = createApp(deps, overrides.routeSets ?? []);
  let server: Server | undefined;
  // Interim: a market-data actor reminder should drive recording once the actor host lands.
  const recorder = new SignalRecorder(market.feed, store.signalHistory);
  let recording: RecorderSchedule | undefined;
  let stopping: Promise<void> | undefined;
  const sweep = setInterval(() => {
    store.counters.sweepExpired(clock.now()).catch((err: unknown) => logger.warn({ err: String(err) }, "counter sweep failed"));
  }, 60_000);
  sweep.unref();

  return {
    config,
    logger,
    store,
    built,
    deps,
    async listen() {
      await newsletter.resumePending();
      // No warm-up schedule yet: market time starts running at REPLAY_START straight away.
      if (market.clock instanceof ReplayMarketClock) market.clock.run();
      recording = scheduleSignalRecording(recorder, market.clock, logger);
      // The history endpoint has content from the first request on (DECISIONS 1 warm-up).
      await recording.ready;
      return new Promise<number>((resolve, reject) => {
        const s = built.app.listen(config.PORT, config.HOST, (err?: Error) => {
          if (err) return reject(err);
          const addr = s.address();
          resolve(typeof addr === "object" && addr ? addr.port : config.PORT);
        });
        s.keepAliveTimeout = 5_000;
        s.requestTimeout = 30_000;
        server = s;
      });
    },
    stop() {
      stopping ??= (async () => {
        clearInterval(sweep);
        if (server) {
          const s = server;
          await new Promise<void>((resolve) => {
            s.close(() => resolve());
            s.closeIdleConnections();
          });
        }
        await recording?.stop();
        await market.stop();
        await newsletter.drain();
        mailer.close();
        await store.close();
      })();
      return stopping;
    },
  };
}
