import { describe, expect, it } from "vitest";
import { ASSET_RULES } from "../../../src/domain/ghost/asset-rules.js";
import { DEFAULT_COSTS } from "../../../src/domain/ghost/costs.js";
import type { BarInput } from "../../../src/domain/ghost/bar-input.js";
import { entryMode } from "../../../src/domain/ghost/entry-mode.js";
import { ackSignals, ghostStatus, initialGhostState, statusAsOf, stepGhost, type GhostState } from "../../../src/domain/ghost/ghost-trader.js";
import { HOUR, T0, candle, passingBar, quietBar } from "./bar-builder.js";

const rules = ASSET_RULES.BTC;
const step = (s: GhostState, input: BarInput) => stepGhost(s, input, rules, DEFAULT_COSTS);
const bar = (i: number, o: number, h: number, l: number, c: number) => candle(T0 + i * HOUR, o, h, l, c);

describe("Ghost Trader lifecycle", () => {
  it("WAITING → READY at the deciding close → IN_POSITION at the next open → WAITING after the exit", () => {
    let s = initialGhostState("BTC", "live_paper");
    expect(ghostStatus(s)).toBe("WAITING");
    s = step(s, passingBar(bar(0, 100, 100, 100, 100))).state;
    expect(ghostStatus(s)).toBe("READY");
    s = step(s, quietBar(bar(1, 100, 100.5, 99.5, 100))).state;
    expect(ghostStatus(s)).toBe("IN_POSITION");
    s = step(s, quietBar(bar(2, 99, 99, 96, 97))).state;
    expect(ghostStatus(s)).toBe("WAITING");
  });

  it("a READY whose next bar never came (a gap) has lapsed: shown as WAITING, as the step would cancel it", () => {
    let s = initialGhostState("BTC", "live_paper");
    s = step(s, passingBar(bar(0, 100, 100, 100, 100))).state;
    expect(statusAsOf(ghostStatus(s), true)).toBe("READY");
    expect(statusAsOf(ghostStatus(s), false)).toBe("WAITING");
    // The step agrees: the bar after a gap does not fill the pending entry.
    const afterGap = step(s, quietBar(bar(5, 100, 100.5, 99.5, 100))).state;
    expect(ghostStatus(afterGap)).toBe("WAITING");
    const inTrade = step(s, quietBar(bar(1, 100, 100.5, 99.5, 100))).state;
    expect(statusAsOf(ghostStatus(inTrade), false)).toBe("IN_POSITION");
  });

  it("a repeated or older bar changes nothing: no double entry under repeated reminders", () => {
    let s = initialGhostState("BTC", "live_paper");
    const decide = passingBar(bar(0, 100, 100, 100, 100));
    s = step(s, decide).state;
    const enter = passingBar(bar(1, 100, 100.5, 99.5, 100));
    const first = step(s, enter);
    const again = step(first.state, enter);
    expect(again.changed).toBe(false);
    expect(again.signals).toHaveLength(0);
    expect(again.state).toBe(first.state);
    // Two reminders racing on the same persisted state produce the same entry id: the store's
    // unique key on trade id keeps one.
    const racing = step(s, enter);
    expect(racing.state.position?.id).toBe(first.state.position?.id);
    expect(step(first.state, decide).changed).toBe(false);
  });

  it("one position per asset: gates passing while in a trade do not add a second", () => {
    let s = initialGhostState("BTC", "live_paper");
    for (let i = 0; i < 5; i++) s = step(s, passingBar(bar(i, 100, 100.5, 99.5, 100))).state;
    expect(s.position).not.toBeNull();
    expect(s.pending).toBeNull();
  });

  it("the gate board is the latest bar's while in a trade, not the bar that decided the entry", () => {
    let s = initialGhostState("BTC", "live_paper");
    s = step(s, passingBar(bar(0, 100, 100, 100, 100))).state;
    expect(s.lastGates?.allowEntry).toBe(true);
    s = step(s, quietBar(bar(1, 100, 100.5, 99.5, 100))).state;
    expect(s.position).not.toBeNull();
    // In the trade, a bar on which the gates fail shows them failing (and adds no entry).
    expect(s.lastGates?.allowEntry).toBe(false);
    expect(s.lastGates?.gatesMet).toBeLessThan(8);
    s = step(s, passingBar(bar(2, 100, 100.5, 99.5, 100))).state;
    expect(s.lastGates?.allowEntry).toBe(true);
    expect(s.pending).toBeNull();
  });

  it("restores mid-trade from its JSON form with the same stop and high-water mark", () => {
    const bars = [
      passingBar(bar(0, 100, 100, 100, 100)),
      quietBar(bar(1, 100, 100.5, 99.5, 100)),
      quietBar(bar(2, 100, 102.5, 99.8, 102)),
      quietBar(bar(3, 102, 104, 101.9, 103.8)),
      quietBar(bar(4, 103.8, 103.9, 103, 103.2)),
      quietBar(bar(5, 103, 103.1, 102, 102.2)),
    ];
    let straight = initialGhostState("BTC", "live_paper");
    for (const b of bars) straight = step(straight, b).state;

    let restarted = initialGhostState("BTC", "live_paper");
    for (const b of bars.slice(0, 4)) restarted = step(restarted, b).state;
    const persisted = JSON.stringify(restarted);
    const restored = JSON.parse(persisted) as GhostState;
    expect(restored.position?.hwm).toBe(104);
    expect(restored.position?.stopLoss).toBeCloseTo(102.44, 10);
    for (const b of bars.slice(4)) restarted = step(restored, b).state;
    // after replaying the rest, the restored trader ends where the uninterrupted one did
    expect(JSON.stringify(restarted)).toBe(JSON.stringify(straight));
  });

  it("replays deterministically: same bars, same trades and ids", () => {
    const feed = [0, 1, 2, 3].map((i) => passingBar(bar(i, 100 + i, 103 + i, 99 + i, 101 + i)));
    const runOnce = () => {
      let s = initialGhostState("BTC", "live_paper");
      const ids: string[] = [];
      for (const b of feed) {
        const r = step(s, b);
        s = r.state;
        ids.push(...r.signals.map((x) => `${x.action}:${x.trade_id}:${x.price}`));
      }
      return ids;
    };
    expect(runOnce()).toEqual(runOnce());
    expect(runOnce()[0]).toMatch(/^ENTRY:[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}:/);
  });

  it("a pending entry is cancelled when liquidity turns INSUFFICIENT before the fill", () => {
    let s = initialGhostState("TAO", "live_paper");
    const tao = (i: number, liquidity: BarInput["liquidity"]) => passingBar(bar(i, 100, 100.5, 99.5, 100), "TAO", { liquidity });
    s = stepGhost(s, tao(0, { status: "UNKNOWN", depthUsd: null, live: false }), ASSET_RULES.TAO, DEFAULT_COSTS).state;
    expect(s.pending).not.toBeNull();
    s = stepGhost(s, tao(1, { status: "INSUFFICIENT", depthUsd: 10_000, live: true }), ASSET_RULES.TAO, DEFAULT_COSTS).state;
    expect(s.position).toBeNull();
    expect(s.pending).toBeNull();
  });

  it("keeps unemitted signals in an outbox until acknowledged (persist, emit, ack)", () => {
    let s = initialGhostState("BTC", "live_paper");
    s = step(s, passingBar(bar(0, 100, 100, 100, 100))).state;
    s = step(s, quietBar(bar(1, 100, 100.5, 99.5, 100))).state;
    expect(s.outbox.map((x) => x.action)).toEqual(["ENTRY"]);
    // crash before ack: the restored state still holds the ENTRY to emit
    const restored = JSON.parse(JSON.stringify(s)) as GhostState;
    expect(restored.outbox).toHaveLength(1);
    s = ackSignals(restored);
    expect(s.outbox).toEqual([]);
    s = step(s, quietBar(bar(2, 99, 99, 96, 97))).state;
    expect(s.outbox.map((x) => x.action)).toEqual(["EXIT"]);
  });

  it("a READY decision expires across a data gap instead of filling at a stale price", () => {
    let s = initialGhostState("BTC", "live_paper");
    s = step(s, passingBar(bar(0, 100, 100, 100, 100))).state;
    const afterGap = step(s, quietBar(bar(5, 120, 121, 119, 120)));
    expect(afterGap.state.position).toBeNull();
    expect(afterGap.signals).toHaveLength(0);
    expect(ghostStatus(afterGap.state)).toBe("WAITING");
  });

  it("records the regime, signals and trigger id at entry", () => {
    let s = initialGhostState("ETH", "live_paper");
    s = stepGhost(s, passingBar(bar(0, 100, 100, 100, 100), "ETH"), ASSET_RULES.ETH, DEFAULT_COSTS).state;
    s = stepGhost(s, quietBar(bar(1, 100, 100.5, 99.5, 100), "ETH"), ASSET_RULES.ETH, DEFAULT_COSTS).state;
    expect(s.position?.triggerKind).toBe("judiciary");
    expect(s.position?.triggerId).toBe(`verdict-${T0}`);
    expect(s.position?.signalsAtEntry.map((x) => x.key)).toEqual(["BTC_RSI", "DXY"]);
  });
});

describe("entry modes", () => {
  const b = passingBar(bar(0, 100, 100, 100, 100));
  it("C breakout: LOW_VOLATILITY with breakout_imminent and volume ≥ 1.5x", () => {
    expect(entryMode({ ...b, regime: { regime: "LOW_VOLATILITY", confidence: 0.8, breakoutImminent: true } })).toBe("C");
  });
  it("B pullback: RSI was ≤ 35 within 12 h", () => {
    expect(entryMode({ ...b, indicators: { ...b.indicators, rsiLow12h: 35 } })).toBe("B");
    expect(entryMode({ ...b, indicators: { ...b.indicators, rsiLow12h: 35.1 } })).toBe("A");
  });
  it("A trend continuation otherwise", () => {
    expect(entryMode(b)).toBe("A");
  });
});
