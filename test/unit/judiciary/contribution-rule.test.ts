import { describe, expect, it } from "vitest";
import { BTC_RULES } from "../../../src/domain/judiciary/btc-rules.js";
import { formatValue } from "../../../src/domain/judiciary/contribution-rule.js";

/** The reading each reason shows, as a trader reads it beside the rule's own thresholds. */
describe("a rule's reason shows its reading", () => {
  const reason = (key: keyof typeof BTC_RULES, v: number) => {
    const r = BTC_RULES[key];
    return r.describe(v, r.contribution(v, 68_000));
  };

  it("shows a small funding rate with three significant digits, not -0.00 beside a rule neutral at 0.01", () => {
    expect(reason("BTC_FUNDING_RATE", -0.0012)).toMatch(/^Funding rate -0\.0012% \/ 8h: mildly bullish; rule: /);
    expect(reason("BTC_FUNDING_RATE", 0.004567)).toMatch(/^Funding rate 0\.00457% \/ 8h: /);
    expect(reason("BTC_FUNDING_RATE", 0.0312)).toMatch(/^Funding rate 0\.03% \/ 8h: mildly bearish;/);
  });

  it("shows an index as the integer it is", () => {
    expect(reason("FEAR_GREED_INDEX", 8)).toMatch(/^Fear & Greed 8: bullish; rule: /);
    expect(reason("FEAR_GREED_INDEX", 74)).toMatch(/^Fear & Greed 74: bearish;/);
  });

  it("keeps the other figures as they were: two decimals under 10, one under 1,000, none above", () => {
    expect([0.4396, 4.39, 48.43, 211.6, 68_434.26, -2.8].map(formatValue)).toEqual(["0.44", "4.39", "48.4", "211.6", "68434", "-2.80"]);
    expect([0, -0.000000001, 0.00999996].map(formatValue)).toEqual(["0", "0", "0.01"]);
  });
});
