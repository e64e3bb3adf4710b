import { describe, expect, it } from "vitest";
import { ASSET_RULES } from "../../../src/domain/ghost/asset-rules.js";
import { ZERO_COSTS, DEFAULT_COSTS } from "../../../src/domain/ghost/costs.js";
import { taoCurrentTrade, openPnlUsd } from "../../../src/domain/ghost/current-trade-view.js";
import { evaluateGates } from "../../../src/domain/ghost/entry-gates.js";
import { initialGhostState, stepGhost } from "../../../src/domain/ghost/ghost-trader.js";
import { regimeStats } from "../../../src/domain/ghost/regime-stats.js";
import { taoStatusView } from "../../../src/domain/ghost/tao-status-view.js";
import { trackRecordView } from "../../../src/domain/ghost/track-record-view.js";
import {
  btcTrackRecordSchema,
  ghostSignalDataSchema,
  regimeStatsSchema,
  solTrackRecordSchema,
  taoCurrentTradeSchema,
  taoGatesSchema,
  taoStatusSchema,
  taoTrackRecordSchema,
} from "../../../src/http/schemas/ghost.js";
import { HOUR, T0, candle, passingBar, quietBar } from "./bar-builder.js";
import { D0, DAY, trade } from "./ledger-fixture.js";

function closedTaoTrade() {
  let s = initialGhostState("TAO", "live_paper");
  const feed = [
    passingBar(candle(T0, 400, 400, 400, 400), "TAO", { liquidity: { status: "SUFFICIENT", depthUsd: 75_000, live: true } }),
    quietBar(candle(T0 + HOUR, 400, 402, 399, 401), "TAO"),
    quietBar(candle(T0 + 2 * HOUR, 401, 420, 400, 418), "TAO"),
  ];
  const out = [];
  for (const b of feed) {
    const r = stepGhost(s, b, ASSET_RULES.TAO, DEFAULT_COSTS);
    s = r.state;
    out.push(...r.closed, ...r.signals);
  }
  return { s, out };
}

describe("response views match the zod schemas", () => {
  it("TAO track record with a real closed trade", () => {
    const { out } = closedTaoTrade();
    const closed = out.filter((x) => "exitReason" in x);
    const view = trackRecordView("TAO", closed as never, 0);
    const parsed = taoTrackRecordSchema.parse(view);
    expect(parsed.trades[0]).toMatchObject({ result: "WIN", mode: "A", isPaper: true, liquidityAtEntry: 75_000, daysSinceHalving: null });
    expect(parsed.stats).toMatchObject({ totalTrades: 1, validatedPaperTrades: 1, paperValidationTarget: 10 });
  });

  it("ghost.signal data of every action parses", () => {
    const { out } = closedTaoTrade();
    const signals = out.filter((x) => "action" in x);
    expect(signals.map((x) => (x as { action: string }).action)).toEqual(["ENTRY", "TP1", "EXIT"]);
    for (const sig of signals) ghostSignalDataSchema.parse(sig);
  });

  it("BTC and SOL track records, empty and not, carry their size key", () => {
    const ledger = [trade({ exit: 110, entryTime: D0, holdHours: 3 }), trade({ asset: "SOL", exit: 90, entryTime: D0, holdHours: 3 })];
    const btc = btcTrackRecordSchema.parse(trackRecordView("BTC", ledger, 0));
    expect(btc.trades[0]?.sizeBtc).toBe(1);
    const sol = solTrackRecordSchema.parse(trackRecordView("SOL", ledger, 0));
    expect(sol.trades[0]?.networkHealthAtEntry).toBe("UNKNOWN");
    expect(taoTrackRecordSchema.parse(trackRecordView("TAO", ledger, 0)).trades).toEqual([]);
    expect(trackRecordView("BTC", ledger, D0 + DAY).stats.totalTrades).toBe(0);
  });

  it("TAO gates and currentTrade", () => {
    const g = evaluateGates(passingBar(candle(T0, 400, 400, 400, 400), "TAO"), ASSET_RULES.TAO);
    taoGatesSchema.parse(g);
    let s = initialGhostState("TAO", "live_paper");
    s = stepGhost(s, passingBar(candle(T0, 400, 400, 400, 400), "TAO"), ASSET_RULES.TAO, ZERO_COSTS).state;
    s = stepGhost(s, quietBar(candle(T0 + HOUR, 400, 401, 399, 400), "TAO"), ASSET_RULES.TAO, ZERO_COSTS).state;
    const pos = s.position!;
    const ct = taoCurrentTradeSchema.parse(taoCurrentTrade(pos, 404, ZERO_COSTS));
    expect(ct).toMatchObject({ entryPrice: 400, stopLoss: 388, tp1Target: 408, tp1Hit: false, hwm: null });
    expect(ct.tp2Target).toBeCloseTo(418, 10);
    expect(ct.pnlUsd).toBe(roundCents(4 * pos.size));
    expect(openPnlUsd(pos, 400, ZERO_COSTS)).toBe(0);
  });

  it("TAO status, waiting and in trade, parses as TaoStatus", () => {
    const base = {
      gates: null,
      noGatesReason: "liquidity: no closed bar evaluated yet",
      liquidity: { status: "UNKNOWN" as const, depthUsd: null, live: false },
      taoPrice: 404,
      markPrice: 404,
      rsi1h: 55,
      ema200: 396,
      regime: "BULL_TRENDING" as const,
      ledger: [],
      sinceMs: 0,
      signedOff: false,
      costs: ZERO_COSTS,
      generatedAt: "2024-01-03T02:00:00.000Z",
    };
    const waiting = taoStatusSchema.parse({ ...taoStatusView({ ...base, state: initialGhostState("TAO", "live_paper") }), latestVerdict: null });
    expect(waiting).toMatchObject({ status: "WAITING", currentTrade: null, paperMode: true, paperTradesValidated: 0 });
    expect(waiting.gates.gatesMet).toBe(0);
    expect(waiting.gates.trigger).toBe("liquidity: no closed bar evaluated yet");
    let s = initialGhostState("TAO", "live_paper");
    s = stepGhost(s, passingBar(candle(T0, 400, 400, 400, 400), "TAO"), ASSET_RULES.TAO, ZERO_COSTS).state;
    s = stepGhost(s, quietBar(candle(T0 + HOUR, 400, 401, 399, 400), "TAO"), ASSET_RULES.TAO, ZERO_COSTS).state;
    const gates = evaluateGates(quietBar(candle(T0 + HOUR, 400, 401, 399, 400), "TAO"), ASSET_RULES.TAO);
    const inTrade = taoStatusSchema.parse({ ...taoStatusView({ ...base, state: s, gates }), latestVerdict: null });
    expect(inTrade.status).toBe("IN_TRADE");
    expect(inTrade.currentTrade?.entryPrice).toBe(400);
    expect(inTrade.gates.trigger).toBe("judiciary: ruling HOLD");
    // No current price (an outage): the status shows none, and the open trade stays marked at
    // the last close rather than falling back to its entry price.
    const stale = taoStatusSchema.parse({ ...taoStatusView({ ...base, taoPrice: null, rsi1h: null, ema200: null, state: s, gates }), latestVerdict: null });
    expect(stale.taoPrice).toBeNull();
    expect(stale.currentTrade?.pnlUsd).toBe(inTrade.currentTrade?.pnlUsd);
    expect(stale.currentTrade?.pnlUsd).not.toBe(0);
  });

  it("regime stats with its envelope", () => {
    const body = {
      ...regimeStats([trade({ exit: 110, entryTime: D0, holdHours: 3 })]),
      since: "2024-01-01",
      generated_at: "1 January 2024, 01:00 CET",
      cached: false,
      cache_ttl_seconds: 300,
    };
    expect(regimeStatsSchema.parse(body).best_regime).toBe("BULL_TRENDING");
  });
});

function roundCents(x: number): number {
  return Math.round(x * 100) / 100;
}
