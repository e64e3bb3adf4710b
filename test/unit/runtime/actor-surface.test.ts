import { describe, expect, it } from "vitest";
import { actorMethodNames } from "../../../src/runtime/actor-proxy.js";
import type { Actor, ActorClass } from "../../../src/runtime/actor.js";
import { CouncilActor } from "../../../src/actors/council-actor.js";
import { EvidenceActor } from "../../../src/actors/evidence-actor.js";
import { GhostTraderActor } from "../../../src/actors/ghost-trader-actor.js";
import { MarketDataActor } from "../../../src/actors/market-data-actor.js";
import { MarketPollerActor } from "../../../src/actors/market-poller-actor.js";
import { RegimeActor } from "../../../src/actors/regime-actor.js";
import { VerdictActor } from "../../../src/actors/verdict-actor.js";
import { WebhookSubscriptionActor } from "../../../src/actors/webhook-subscription-actor.js";
import { WeightsActor } from "../../../src/actors/weights-actor.js";

/**
 * What a caller can invoke on each actor type by name: the Dapr host dispatches a method named in
 * daprd's HTTP path if and only if it is in this set. TypeScript's `private` is erased at run
 * time, so helpers are `#private` and never appear here; a helper added as `private` fails this.
 */
const SURFACE: readonly [ActorClass<Actor>, readonly string[]][] = [
  [CouncilActor, ["ensureScheduled", "refresh"]],
  [EvidenceActor, ["agentMapsFor", "ensureScheduled", "mapFor", "modelMapsFor"]],
  [GhostTraderActor, ["ensureScheduled", "liquidity", "step"]],
  [MarketDataActor, ["ensureScheduled", "position"]],
  [MarketPollerActor, ["ensureScheduled", "recordHold"]],
  [RegimeActor, ["ensureScheduled", "evaluateThrough", "status"]],
  [VerdictActor, ["ensureScheduled", "lastEvaluatedAt", "refresh"]],
  [WebhookSubscriptionActor, ["accept", "disableForKey", "pendingCount", "remove", "reseal", "resume", "rotateSecret", "setActive"]],
  [WeightsActor, ["ensureScheduled", "update"]],
];

describe("actor call surfaces", () => {
  it.each(SURFACE.map(([cls, names]) => [cls.actorType, cls, names] as const))("%s exposes exactly its public methods", (_type, cls, names) => {
    expect([...actorMethodNames(cls)].sort()).toEqual([...names].sort());
  });
});
