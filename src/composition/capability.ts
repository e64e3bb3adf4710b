import type { KeyOwnerMail } from "../application/key-owner-mail.js";
import type { ActorHost } from "../runtime/actor-host.js";
import type { EventBus } from "../events/event-bus.js";
import type { AppDeps } from "../http/app-deps.js";
import type { Route } from "../http/route.js";
import type { OrderBookExchange } from "../feeds/live/ccxt-order-book.js";
import type { MarketPoller } from "../feeds/live/market-poller.js";

/** What a capability is wired from: the HTTP dependencies plus the actor host and the event bus. */
export interface CapabilityContext extends AppDeps {
  readonly host: ActorHost;
  readonly bus: EventBus;
  /** MARKET_FEED=live: the polls the market-data capability schedules on actor reminders. */
  readonly marketPollers?: readonly MarketPoller[];
  /** Live only: the spot exchange's order book for the TAO liquidity probe. */
  readonly orderBook?: OrderBookExchange | null;
  /** How long after an hourly close the bar is in the feed (Market.barSettleMs); 0 when not given. */
  readonly barSettleMs?: number;
  /** Mail to a key lineage's owner (the address its key was generated with), within shared send limits. */
  readonly keyOwnerMail: KeyOwnerMail;
}

/**
 * One slice of the product (regime, judiciary and councils, ghost traders, webhooks, ...) as the
 * composition root sees it. Each lives in src/composition/capabilities/<name>.ts and is listed
 * once in capabilities.ts; nothing else in the composition knows its actors or routes.
 */
export interface Capability {
  readonly name: string;
  /** Registers the capability's actor classes (factories close over ctx). Runs before host.start(). */
  registerActors(ctx: CapabilityContext): void;
  /**
   * Runs after host.start() and before warm-up: makes sure the schedules exist, idempotently
   * (typically one proxy call per actor id whose handler sets its reminders if missing).
   */
  start(ctx: CapabilityContext): Promise<void>;
  /** The HTTP routes the capability serves; they read from the store, not from the actors. */
  routes(ctx: CapabilityContext): Route[];
}
