import { describe, expect, it } from "vitest";
import { MarketDataActor } from "../../../src/actors/market-data-actor.js";
import { handoverOrder } from "../../../src/composition/dapr-warm-up.js";
import type { ActorHandover } from "../../../src/runtime/actor-handover.js";

const handover = (type: string, id: string): ActorHandover => ({ type, id, state: [], reminders: [] });

describe("the order of the warm-up's handover to Dapr", () => {
  it("moves the recorder, whose position tells the next founder to resume, after every other actor", () => {
    const all = [
      handover("GhostTrader", "ETH"),
      handover(MarketDataActor.actorType, MarketDataActor.ID),
      handover("Regime", "regime"),
      handover("GhostTrader", "TAO"),
      // Another actor of the recorder's type but not the recorder goes with the others.
      handover(MarketDataActor.actorType, "elsewhere"),
    ];
    const { first, last } = handoverOrder(all);
    expect(last.map((h) => `${h.type}/${h.id}`)).toEqual([`${MarketDataActor.actorType}/${MarketDataActor.ID}`]);
    expect(first.map((h) => `${h.type}/${h.id}`)).toEqual(["GhostTrader/ETH", "Regime/regime", "GhostTrader/TAO", `${MarketDataActor.actorType}/elsewhere`]);
  });
});
