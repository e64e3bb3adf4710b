import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createKey, startService, type RunningService } from "../../support/service.js";
import { btcVerdictSchema, chartingSignalSchema } from "../../../src/http/schemas/judiciary.js";
import { taoCouncilRunSchema } from "../../../src/http/schemas/council.js";
import { taoStatusSchema } from "../../../src/http/schemas/ghost.js";
import { turnOffsets } from "../../../src/composition/turn-order.js";

/**
 * The real service replaying from `replayStart` after a warm-up of `warmUpDays`, started before
 * and stopped after the calling describe's tests, and a GET with a Pro key that expects 200.
 */
function serviceAt(replayStart: string, warmUpDays: number) {
  let running: RunningService | undefined;
  let key = "";
  beforeAll(async () => {
    running = await startService({ REPLAY_START: replayStart, REPLAY_WARMUP_DAYS: String(warmUpDays) });
    key = await createKey(running, "pro");
  }, 180_000);
  afterAll(async () => {
    await running?.stop();
  });
  const svc = (): RunningService => {
    if (running === undefined) throw new Error("the service has not started");
    return running;
  };
  return {
    svc,
    key: () => key,
    async get(path: string): Promise<unknown> {
      const res = await fetch(`${svc().url}${path}`, { headers: { "X-API-Key": key } });
      const body: unknown = await res.json();
      expect(res.status, `${path}: ${JSON.stringify(body)}`).toBe(200);
      return body;
    },
  };
}

/**
 * The service inside a real gap of the bundled history: Binance's hourly candles stop after the
 * one closed 2018-02-08T01:00 and resume at 2018-02-09T11:00. Market time 06:00 is five hours into
 * it. What a caller reads must say there is no current price or ruling, not show the old ones as now.
 */
describe("routes during an exchange outage in the history (2018-02-08)", () => {
  const at = serviceAt("2018-02-08T06:00:00Z", 1);
  const get = at.get;
  const lastClose = Date.parse("2018-02-08T01:00:00Z");

  it("the charting payload reads PENDING with zeros, not the last ruling, price and indicators from before the gap", async () => {
    const chart = chartingSignalSchema.parse(await get("/v1/charting/signal"));
    expect(chart.timestamp * 1000).toBeGreaterThanOrEqual(Date.parse("2018-02-08T06:00:00Z"));
    expect({ verdict: chart.verdict, confidence: chart.confidence, btc_price: chart.btc_price, rsi: chart.rsi, ema_200: chart.ema_200, regime: chart.regime }).toEqual({
      verdict: "PENDING",
      confidence: 0,
      btc_price: 0,
      rsi: 0,
      ema_200: 0,
      // The detector's last evaluation is of the bar closed at 01:00: the regime then, not now.
      regime: "UNKNOWN",
    });
    const stored = await at.svc().service.deps.store.regimeHistory.latestAtOrBefore(at.svc().service.deps.marketClock.now());
    expect(stored?.at).toBe(lastClose);
  });

  it("the BTC verdict is the last one made while the price was live, with that price and its own time", async () => {
    const v = btcVerdictSchema.parse(await get("/v1/verdict/latest"));
    // The price is LIVE while its last bar is at most 2 hours old: until 03:00.
    expect(v.timestamp).toBe("2018-02-08T03:00:00.000Z");
    const bar = at.svc().service.deps.feed.candles("BTC", "1h", lastClose, 1)[0];
    expect(bar?.t).toBe(lastClose - 3_600_000);
    expect(v.btc_price).toBe(bar?.c);
  });
});

/**
 * Past the end of TAO's bundled history (its last hourly bar closes 2026-04-22T07:00) while BTC's
 * goes on: TAO's figures are no longer current, BTC's are.
 */
describe("routes after TAO's history ends (2026-04-25, BTC's still running)", () => {
  const at = serviceAt("2026-04-25T06:00:00Z", 5);
  const get = at.get;

  it("TAO status shows no current price or indicators, and TAO's council stopped two hours after its last bar", async () => {
    const feed = at.svc().service.deps.feed;
    const now = at.svc().service.deps.marketClock.now();
    const lastTaoClose = (feed.candles("TAO", "1h", now, 1)[0]?.t ?? 0) + 3_600_000;
    expect(now - lastTaoClose).toBeGreaterThan(48 * 3_600_000);
    const status = taoStatusSchema.parse(await get("/v1/tao/status"));
    expect({ taoPrice: status.taoPrice, rsi1h: status.rsi1h, ema200: status.ema200 }).toEqual({ taoPrice: null, rsi1h: null, ema200: null });
    // No gate board of a bar weeks old: nothing passes, and the trigger says why.
    expect(status.gates.gatesMet).toBe(0);
    expect(status.gates.trigger).toBe(`liquidity: no TAO bar since ${new Date(lastTaoClose).toISOString()}, so no entry can be made`);
    // The market regime is BTC's, which goes on: the current one, not the one at TAO's last bar.
    const regimeNow = await get("/v1/regime/current");
    expect(status.regime).toBe((regimeNow as { regime: string }).regime);
    const council = taoCouncilRunSchema.parse(await get("/v1/tao/council"));
    const sessionAt = Date.parse(council.verdict?.createdAt ?? "");
    expect(sessionAt).toBeLessThanOrEqual(lastTaoClose + 2 * 3_600_000);
    expect(sessionAt).toBeGreaterThan(lastTaoClose - 3_600_000);
    // It promises no refresh, and a run request asks for none.
    expect(council.detail).toMatch(/TAO has no live price .* the council does not deliberate until it returns/);
    const run = await fetch(`${at.svc().url}/v1/tao/council/run`, { method: "POST", headers: { "X-API-Key": at.key() } });
    const ran = taoCouncilRunSchema.parse(await run.json());
    expect(ran.detail).not.toMatch(/refresh of the current slot was requested/);
    // BTC's history goes on: its verdict is current.
    const btc = btcVerdictSchema.parse(await get("/v1/verdict/latest"));
    // The newest slot's verdict is made once its turn (30 s after the slot) has come.
    expect(now - Date.parse(btc.timestamp)).toBeLessThanOrEqual(5 * 60_000 + turnOffsets(0).verdict);
  });
});
