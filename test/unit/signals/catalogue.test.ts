import { describe, expect, it } from "vitest";
import { CATALOGUE_IN_ORDER, SIGNAL_CATALOGUE, signalSource } from "../../../src/domain/signals/catalogue.js";
import { SIGNAL_KEYS } from "../../../src/domain/signals/signal-keys.js";

describe("signal catalogue", () => {
  it("defines all 27 keys once, in SIGNAL_KEYS order", () => {
    expect(CATALOGUE_IN_ORDER.map((d) => d.key)).toEqual([...SIGNAL_KEYS]);
    expect(CATALOGUE_IN_ORDER).toHaveLength(27);
  });

  it("puts each signal in its DECISIONS 4 category", () => {
    const byCategory = (c: string) => CATALOGUE_IN_ORDER.filter((d) => d.category === c).map((d) => d.key);
    expect(byCategory("onchain")).toEqual(["SOPR", "MVRV_ZSCORE", "NUPL", "HASH_RIBBON", "EXCHANGE_NETFLOW"]);
    expect(byCategory("macro")).toEqual(["US10Y", "DXY", "GOLD", "BTC_NASDAQ_CORR"]);
    expect(byCategory("options")).toEqual(["PUT_CALL_RATIO", "DVOL", "OPTIONS_OI"]);
    expect(byCategory("liquidity")).toEqual(["STABLECOIN_MINT", "WHALE_FLOW", "ENTITY_PRESSURE"]);
    expect(byCategory("liquidation")).toEqual(["LIQ_DIRECTIONAL_BIAS", "LIQ_CASCADE_RISK", "LIQ_PROXIMITY_ALERT"]);
    expect(byCategory("technical")).toEqual([
      "BTC_RSI",
      "BTC_EMA200_DISTANCE",
      "BTC_MACD_HIST",
      "BTC_REALIZED_VOL",
      "BTC_VOLUME_RATIO",
    ]);
    expect(byCategory("derivatives")).toEqual(["BTC_FUNDING_RATE", "BTC_OPEN_INTEREST"]);
    expect(byCategory("sentiment")).toEqual(["BTC_DOMINANCE", "FEAR_GREED_INDEX"]);
  });

  it("has a replay source exactly for the signals DECISIONS 7 lists", () => {
    const withReplay = SIGNAL_KEYS.filter((k) => signalSource(k, "replay") !== null);
    expect(withReplay.sort()).toEqual(
      [
        "BTC_RSI",
        "BTC_EMA200_DISTANCE",
        "BTC_MACD_HIST",
        "BTC_REALIZED_VOL",
        "BTC_VOLUME_RATIO",
        "BTC_FUNDING_RATE",
        "FEAR_GREED_INDEX",
        "US10Y",
        "DXY",
        "GOLD",
        "BTC_NASDAQ_CORR",
        "MVRV_ZSCORE",
        "NUPL",
        "HASH_RIBBON",
        "DVOL",
        "STABLECOIN_MINT",
        "ENTITY_PRESSURE",
      ].sort(),
    );
  });

  it("gives every source a positive refresh interval and a provider id", () => {
    for (const d of CATALOGUE_IN_ORDER) {
      expect(d.displayName.length).toBeGreaterThan(0);
      expect(d.unit.length).toBeGreaterThan(0);
      for (const s of [d.sources.replay, d.sources.live]) {
        if (s === null) continue;
        expect(s.refreshMs).toBeGreaterThan(0);
        expect(s.provider.length).toBeGreaterThan(0);
      }
      if (d.sources.replay) expect(d.sources.replay.provider.startsWith("replay:")).toBe(true);
    }
    expect(SIGNAL_CATALOGUE.BTC_DOMINANCE.sources.replay).toBeNull();
  });
});
