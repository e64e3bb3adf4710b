import { describe, expect, it } from "vitest";
import { NETWORK_FIGURE_KEYS, type NetworkFigure } from "../../../../src/domain/signals/network-figures.js";
import { decodeObservation, figureObservation, spotObservation } from "../../../../src/feeds/live/observation-codec.js";

const AT = Date.parse("2026-05-01T12:00:00Z");

describe("network figures through the shared observation log's codec", () => {
  it.each(NETWORK_FIGURE_KEYS.map((key) => [key]))("%s round-trips unchanged", (key) => {
    const figure: NetworkFigure = { key, value: 73.33, observedAt: AT, source: "subtensor" };
    const row = figureObservation(figure);
    expect(row.stream).toBe(`figure:${key}`);
    expect(decodeObservation(row)).toEqual({ kind: "figure", figure });
  });

  it("the TAO figures as the subtensor provider writes them", () => {
    const ratio = figureObservation({ key: "TAO_STAKING_RATIO", value: 69.1, observedAt: AT, source: "subtensor" });
    expect(ratio).toEqual({ stream: "figure:TAO_STAKING_RATIO", at: AT, payload: '{"value":69.1,"source":"subtensor"}' });
    expect(decodeObservation({ stream: "figure:TAO_SUBNET_COUNT", at: AT, payload: '{"value":129,"source":"subtensor"}' })).toEqual({
      kind: "figure",
      figure: { key: "TAO_SUBNET_COUNT", value: 129, observedAt: AT, source: "subtensor" },
    });
  });

  it("skips a figure key this version does not know, and a damaged TAO payload", () => {
    expect(decodeObservation({ stream: "figure:TAO_SUBNET_ACTIVITY", at: AT, payload: '{"value":1,"source":"x"}' })).toBeNull();
    expect(decodeObservation({ stream: "figure:TAO_STAKING_RATIO", at: AT, payload: '{"value":"73.33","source":"subtensor"}' })).toBeNull();
    expect(decodeObservation({ stream: "figure:TAO_STAKING_RATIO", at: AT + 0.5, payload: '{"value":73.33,"source":"subtensor"}' })).toBeNull();
  });
});

describe("spot prices through the codec", () => {
  it("one row per asset and hour, carrying the price and when the poll saw it", () => {
    const row = spotObservation("BTC", AT, { value: 97_123.5, observedAt: AT + 17 * 60_000 });
    expect(row).toEqual({ stream: "spot:BTC", at: AT, payload: `{"value":97123.5,"observedAt":${AT + 17 * 60_000}}` });
    expect(decodeObservation(row)).toEqual({ kind: "spot", asset: "BTC", spot: { value: 97_123.5, observedAt: AT + 17 * 60_000 } });
  });

  it("skips an unknown asset and a price that is not a positive number", () => {
    expect(decodeObservation({ stream: "spot:DOGE", at: AT, payload: `{"value":1,"observedAt":${AT}}` })).toBeNull();
    expect(decodeObservation({ stream: "spot:BTC", at: AT, payload: `{"value":0,"observedAt":${AT}}` })).toBeNull();
    expect(decodeObservation({ stream: "spot:BTC", at: AT, payload: '{"value":97000}' })).toBeNull();
  });
});
