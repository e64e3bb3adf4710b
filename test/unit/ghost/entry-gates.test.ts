import { describe, expect, it } from "vitest";
import { ASSET_RULES } from "../../../src/domain/ghost/asset-rules.js";
import type { BarInput } from "../../../src/domain/ghost/bar-input.js";
import { evaluateGates } from "../../../src/domain/ghost/entry-gates.js";
import { inWeekendBlock } from "../../../src/domain/ghost/weekend-session.js";
import type { Asset } from "../../../src/domain/signals/signal-keys.js";
import { HOUR, T0, candle, passingBar } from "./bar-builder.js";

const base = (asset: Asset = "TAO", over: Partial<BarInput> = {}) => passingBar(candle(T0, 1000, 1005, 995, 1000), asset, over);
const gates = (input: BarInput) => evaluateGates(input, ASSET_RULES[input.asset]);
const withInd = (ind: Partial<BarInput["indicators"]>, asset: Asset = "TAO") => {
  const b = base(asset);
  return { ...b, indicators: { ...b.indicators, ...ind } };
};

describe("entry gates: boundaries", () => {
  it("all 8 pass on the reference bar: gatesMet 8, trigger null", () => {
    const g = gates(base());
    expect(g.gatesMet).toBe(8);
    expect(g.trigger).toBeNull();
    expect(g.allowEntry).toBe(true);
    expect(g.qualityScore.total).toBe(89);
  });

  it("liquidity: volume ratio 1.5 passes, 1.49 fails; depth 50,000 passes, 49,999 fails", () => {
    expect(gates(withInd({ volumeRatio: 1.5 })).liquidity).toBe(true);
    const low = gates(withInd({ volumeRatio: 1.49 }));
    expect(low.liquidity).toBe(false);
    expect(low.trigger).toMatch(/^liquidity: volume ratio 1.49/);
    expect(gates(base("TAO", { liquidity: { status: "SUFFICIENT", depthUsd: 50_000, live: true } })).liquidity).toBe(true);
    expect(gates(base("TAO", { liquidity: { status: "SUFFICIENT", depthUsd: 49_999, live: true } })).liquidity).toBe(false);
  });

  it("unknown depth: replay (no order book) checks the volume half only; live (probe failed) shuts the gate", () => {
    for (const asset of ["TAO", "BTC", "ETH", "SOL"] as const) {
      expect(gates(base(asset, { liquidity: { status: "UNKNOWN", depthUsd: null, live: false } })).liquidity).toBe(true);
      const live = gates(base(asset, { liquidity: { status: "UNKNOWN", depthUsd: null, live: true } }));
      expect(live.liquidity).toBe(false);
      expect(live.allowEntry).toBe(false);
      expect(live.trigger).toBe("liquidity: depth unknown (the live order-book probe has no answer)");
    }
  });

  it("INSUFFICIENT liquidity blocks the entry whatever else passes", () => {
    const g = gates(base("TAO", { liquidity: { status: "INSUFFICIENT", depthUsd: 80_000, live: true } }));
    expect(g.liquidity).toBe(false);
    expect(g.liquidityStatus).toBe("INSUFFICIENT");
    expect(g.gatesMet).toBe(7);
    expect(g.allowEntry).toBe(false);
    expect(g.trigger).toBe("liquidity: liquidity INSUFFICIENT");
  });

  it("judiciary: ACCUMULATE is bullish, HOLD is not", () => {
    const b = base();
    expect(gates({ ...b, judiciary: { ...b.judiciary!, ruling: "ACCUMULATE" } }).judiciary).toBe(true);
    const hold = gates({ ...b, judiciary: { ...b.judiciary!, ruling: "HOLD" } });
    expect(hold.judiciary).toBe(false);
    expect(hold.trigger).toBe("judiciary: ruling HOLD");
  });

  it("ETH (no council): its council gate checks its own judiciary verdict's calibrated confidence, 0.65", () => {
    const eth = (ruling: "BUY" | "HOLD", confidence: number) => {
      const b = base("ETH", { council: null });
      return gates({ ...b, judiciary: { ...b.judiciary!, ruling, confidence } });
    };
    expect(eth("BUY", 0.65).council).toBe(true);
    const low = eth("BUY", 0.6499);
    expect(low.council).toBe(false);
    expect(low.allowEntry).toBe(false);
    expect(low.trigger).toBe("council: judiciary calibrated confidence 0.6499 below 0.65");
    expect(eth("HOLD", 0.9).council).toBe(false);
  });

  it("council: TAO 0.72 passes and 0.7199 fails; BTC and SOL at 0.65", () => {
    const at = (asset: Asset, confidence: number) =>
      gates(base(asset, { council: { ruling: "BUY", confidence, sessionId: "s" } })).council;
    expect(at("TAO", 0.72)).toBe(true);
    expect(at("TAO", 0.7199)).toBe(false);
    expect(at("BTC", 0.65)).toBe(true);
    expect(at("BTC", 0.6499)).toBe(false);
    expect(at("SOL", 0.65)).toBe(true);
    expect(at("SOL", 0.6499)).toBe(false);
    expect(gates(base("TAO", { council: { ruling: "SELL", confidence: 0.9, sessionId: "s" } })).council).toBe(false);
    expect(gates(base("TAO", { council: null })).trigger).toBe("council: no council verdict");
  });

  it("EMA proximity: +0.3 % and +3.5 % pass; +0.29 % and +3.51 % fail", () => {
    const dist = (c: number) => gates({ ...base(), candle: candle(T0, c, c, c, c), indicators: { ...base().indicators, ema200: 1000 } });
    expect(dist(1003).emaProximity).toBe(true);
    expect(dist(1035).emaProximity).toBe(true);
    expect(dist(1002.9).emaProximity).toBe(false);
    expect(dist(1035.1).emaProximity).toBe(false);
  });

  it("regime: favourable set, LOW_VOLATILITY only with breakout_imminent", () => {
    const r = (regime: NonNullable<BarInput["regime"]>["regime"], breakoutImminent: boolean) =>
      gates(base("TAO", { regime: { regime, confidence: 0.9, breakoutImminent } })).regime;
    for (const ok of ["BULL_TRENDING", "RISK_ON", "ACCUMULATION", "WHALE_ACCUMULATION"] as const) expect(r(ok, false)).toBe(true);
    expect(r("LOW_VOLATILITY", true)).toBe(true);
    expect(r("LOW_VOLATILITY", false)).toBe(false);
    expect(r("BEAR_TRENDING", false)).toBe(false);
    expect(r("HIGH_VOLATILITY", false)).toBe(false);
  });

  it("quality: 65.0 passes, 64.9 fails (25 trend + 5 momentum + 15 volume + 16 confidence + regime)", () => {
    const q = (regimeConfidence: number) =>
      gates({ ...withInd({ rsi1h: 45 }), regime: { regime: "BULL_TRENDING", confidence: regimeConfidence, breakoutImminent: false } });
    expect(q(0.2).qualityScore.total).toBe(65);
    expect(q(0.2).quality).toBe(true);
    expect(q(0.195).qualityScore.total).toBe(64.9);
    expect(q(0.195).quality).toBe(false);
    // 64.998 shows as 65 (one decimal) and still fails: the gate compares the unrounded score.
    expect(q(0.1999).qualityScore.total).toBe(65);
    expect(q(0.1999).quality).toBe(false);
    expect(q(0.1999).trigger).toBe("quality: quality 64.99 below 65");
  });

  it("momentum: RSI 45 passes, 44.99 fails", () => {
    expect(gates(withInd({ rsi1h: 45 })).momentum).toBe(true);
    expect(gates(withInd({ rsi1h: 44.99 })).momentum).toBe(false);
  });

  it("trigger names the first failing gate in SPEC order", () => {
    const b = withInd({ rsi1h: 30 });
    const g = gates({ ...b, regime: { regime: "BEAR_TRENDING", confidence: 0.9, breakoutImminent: false } });
    expect(g.trigger).toBe("regime: regime BEAR_TRENDING not favourable");
    expect(g.gatesMet).toBe(5);
  });
});

describe("session gate: weekend block, Europe/Prague", () => {
  // January: Prague = UTC+1. Decisions are taken at the bar close (open + 1 h).
  const closeAtPrague = (y: number, m: number, d: number, h: number, min = 0) => Date.UTC(y, m, d, h - 1, min) - HOUR;
  const session = (asset: Asset, closeOpenT: number, status: "SUFFICIENT" | "UNKNOWN" = "UNKNOWN") =>
    gates(passingBar(candle(closeOpenT, 1000, 1005, 995, 1000), asset, { liquidity: { status, depthUsd: status === "SUFFICIENT" ? 60_000 : null, live: status === "SUFFICIENT" } })).session;

  it("Friday 21:59 open, 22:00 blocked; Sunday 05:59 blocked, 06:00 open", () => {
    expect(session("TAO", closeAtPrague(2024, 0, 5, 21, 59))).toBe(true);
    expect(session("TAO", closeAtPrague(2024, 0, 5, 22))).toBe(false);
    expect(session("TAO", closeAtPrague(2024, 0, 7, 5, 59))).toBe(false);
    expect(session("TAO", closeAtPrague(2024, 0, 7, 6))).toBe(true);
  });

  it("00:00-04:00 inside the block opens only with SUFFICIENT liquidity", () => {
    expect(session("TAO", closeAtPrague(2024, 0, 6, 2), "SUFFICIENT")).toBe(true);
    expect(session("TAO", closeAtPrague(2024, 0, 6, 2), "UNKNOWN")).toBe(false);
    expect(session("TAO", closeAtPrague(2024, 0, 6, 4), "SUFFICIENT")).toBe(false);
  });

  it("BTC and ETH have no weekend block; SOL has", () => {
    const sat = closeAtPrague(2024, 0, 6, 12);
    expect(session("BTC", sat)).toBe(true);
    expect(session("ETH", sat)).toBe(true);
    expect(session("SOL", sat)).toBe(false);
  });

  it("follows summer time: Friday 22:00 CEST is 20:00 UTC", () => {
    expect(inWeekendBlock(Date.UTC(2024, 6, 5, 19, 59))).toBe(false);
    expect(inWeekendBlock(Date.UTC(2024, 6, 5, 20, 0))).toBe(true);
  });
});
