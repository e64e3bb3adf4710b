import type { Router } from "express";
import type { Config } from "../config/env.js";
import type { Logger } from "../logging/logger.js";
import type { Store } from "../store/store.js";
import type { Clock } from "../runtime/clocks/clock.js";
import { ReplayMarketClock, type MarketClock } from "../runtime/clocks/market-clock.js";
import type { EventBus } from "../events/event-bus.js";
import { LocalActorHost } from "../runtime/local/local-host.js";
import { OutboxDispatcher } from "../events/outbox-dispatcher.js";
import { InProcessEventBus } from "../events/in-process-bus.js";
import { DaprActorHost } from "../runtime/dapr/dapr-host.js";
import { SidecarClient } from "../runtime/dapr/sidecar-client.js";
import { daprActorRouter } from "../runtime/dapr/actor-routes.js";
import { daprCallerGuard } from "../http/middleware/dapr-caller-guard.js";
import { DaprEventBus } from "../events/dapr-bus.js";
import { actorStallMs } from "./actor-stall.js";
import { daprEventRouter } from "../events/dapr-bus-routes.js";

/** The pub/sub component name in components/ (docker-compose and the Dapr test set-up). */
export const DAPR_PUBSUB = "pubsub";

export type OpenedActors =
  | { readonly kind: "local"; readonly host: LocalActorHost; readonly bus: EventBus; readonly routers: readonly Router[] }
  | { readonly kind: "dapr"; readonly host: DaprActorHost; readonly bus: EventBus; readonly routers: readonly Router[] };

/**
 * The actor runtime ACTOR_RUNTIME names, with both clocks its reminders can name. Market
 * reminders run on market time: in replay the Dapr host converts them to wall time at
 * REPLAY_SPEED, since Dapr schedules on the wall clock; wall reminders go to Dapr as they are.
 */
export function openActors(config: Config, store: Store, clock: MarketClock, wallClock: Clock, logger: Logger): OpenedActors {
  if (config.ACTOR_RUNTIME === "dapr") {
    const sidecar = new SidecarClient(config.DAPR_HTTP_PORT, config.DAPR_HOST);
    const bus = new DaprEventBus(sidecar, DAPR_PUBSUB, logger);
    // Read at each registration: joining the cluster's clock may change the speed (runFrom).
    const clockRate = (): number => (clock instanceof ReplayMarketClock ? clock.rate : 1);
    const host = new DaprActorHost({ sidecar, clock, clockRate, wallClock, logger, bus, marketRemindersHeld: () => clock.warmingUp, stalledTurnMs: actorStallMs(config) });
    // The config refuses dapr without the token; this only narrows its type.
    if (config.APP_API_TOKEN === undefined) throw new Error("APP_API_TOKEN is required with ACTOR_RUNTIME=dapr");
    return { kind: "dapr", host, bus, routers: [daprCallerGuard(config.APP_API_TOKEN, logger, [daprActorRouter(host), daprEventRouter(bus)], wallClock)] };
  }
  const bus = new InProcessEventBus();
  const host = new LocalActorHost({
    store: store.actorState,
    clock,
    wallClock,
    logger,
    dispatcher: new OutboxDispatcher(store.actorOutbox, bus, logger),
  });
  return { kind: "local", host, bus, routers: [] };
}
