import { describe, expect, it } from "vitest";
import { MarketDataActor } from "../../../src/actors/market-data-actor.js";
import { handOver, handoverOrder } from "../../../src/composition/dapr-warm-up.js";
import type { ActorHandover } from "../../../src/runtime/actor-handover.js";
import { captureLogger } from "../../support/capture-logger.js";

const handover = (type: string, id: string): ActorHandover => ({ type, id, state: [], reminders: [] });
const nameOf = (h: ActorHandover): string => `${h.type}/${h.id}`;
const RECORDER = `${MarketDataActor.actorType}/${MarketDataActor.ID}`;

const cluster = (): ActorHandover[] => [
  handover("GhostTrader", "ETH"),
  handover(MarketDataActor.actorType, MarketDataActor.ID),
  handover("Regime", "regime"),
  handover("GhostTrader", "TAO"),
  // Another actor of the recorder's type but not the recorder goes with the others.
  handover(MarketDataActor.actorType, "elsewhere"),
];

describe("the order of the warm-up's handover to Dapr", () => {
  it("moves the recorder, whose position tells the next founder to resume, after every other actor", () => {
    const { first, last } = handoverOrder(cluster());
    expect(last.map(nameOf)).toEqual([RECORDER]);
    expect(first.map(nameOf)).toEqual(["GhostTrader/ETH", "Regime/regime", "GhostTrader/TAO", `${MarketDataActor.actorType}/elsewhere`]);
  });
});

describe("the warm-up's handover to Dapr when a move fails", () => {
  it("tries a failed move again until it succeeds, and moves the recorder only after every other actor moved", async () => {
    const { logger, lines } = captureLogger("warn");
    const moved: string[] = [];
    let ethAttempts = 0;
    const adopt = (h: ActorHandover): Promise<void> => {
      // Daprd busy with replicas joining: the first two moves of one trader time out.
      if (h.id === "ETH" && ++ethAttempts <= 2) return Promise.reject(new Error("sidecar timeout"));
      moved.push(nameOf(h));
      return Promise.resolve();
    };
    expect(await handOver(cluster(), adopt, { stop: new AbortController().signal, logger, retryMs: [1, 1] })).toBe(true);
    expect(ethAttempts).toBe(3);
    expect([...moved].sort()).toEqual(cluster().map(nameOf).sort());
    expect(moved.at(-1)).toBe(RECORDER);
    const warnings = lines.filter((l) => l.msg === "moving an actor into Dapr failed; trying again");
    expect(warnings.map((l) => [l.actor_type, l.actor_id, l.attempt])).toEqual([
      ["GhostTrader", "ETH", 1],
      ["GhostTrader", "ETH", 2],
    ]);
  });

  it("never moves the recorder when the service stops while another move keeps failing", async () => {
    const { logger } = captureLogger("warn");
    const stop = new AbortController();
    const moved: string[] = [];
    let failures = 0;
    const adopt = (h: ActorHandover): Promise<void> => {
      if (h.type === "Regime") {
        // Stopped while waiting to try a third time.
        if (++failures === 3) setTimeout(() => stop.abort(), 10);
        return Promise.reject(new Error("sidecar unreachable"));
      }
      moved.push(nameOf(h));
      return Promise.resolve();
    };
    // A wait longer than the test's time limit: only the stop can end it.
    expect(await handOver(cluster(), adopt, { stop: stop.signal, logger, retryMs: [1, 1, 60_000] })).toBe(false);
    expect(failures).toBe(3);
    expect(moved).not.toContain(RECORDER);
  });
});
