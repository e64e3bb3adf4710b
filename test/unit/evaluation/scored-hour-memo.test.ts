import { describe, expect, it } from "vitest";
import { ScoredHourMemo, type MemoHour } from "../../../src/application/scored-hour-memo.js";

const HOUR = 3_600_000;
const START = Date.UTC(2022, 0, 1);

describe("the replay memo of scored hours", () => {
  it("gives back each verdict hour as stored, a blackout hour as null, and nothing for an hour never stored", () => {
    const memo = new ScoredHourMemo();
    const hours = Array.from({ length: 5000 }, (_, i) => ({ at: START + i * HOUR, ruling: (["BUY", "SELL", "HOLD"] as const)[i % 3] ?? "HOLD", score: (i % 97) - 48.25 }));
    for (const h of hours) if (h.at !== START + 7 * HOUR) memo.set(h.at, h);
    memo.set(START + 7 * HOUR, null);
    expect(memo.get(START + 7 * HOUR)).toBeNull();
    expect(memo.get(START + 5000 * HOUR)).toBeUndefined();
    expect(hours.filter((h) => h.at !== START + 7 * HOUR).every((h) => JSON.stringify(memo.get(h.at)) === JSON.stringify(h))).toBe(true);
  });

  it("keeps a council hour's agent votes in roster order, an abstaining agent absent", () => {
    const memo = new ScoredHourMemo(["A", "B", "C"]);
    const vote = (agent: string, at: number, score: number) => ({ agent, at, ruling: score > 0 ? ("BUY" as const) : ("SELL" as const), score });
    // The first hour lacks B and the second lacks A: the roster order A, B, C still comes back.
    const first: MemoHour = { at: START, ruling: "HOLD", score: 1, agents: [vote("A", START, 3), vote("C", START, -2)] };
    const second: MemoHour = { at: START + HOUR, ruling: "BUY", score: 20, agents: [vote("B", START + HOUR, 5), vote("C", START + HOUR, 7)] };
    const third: MemoHour = { at: START + 2 * HOUR, ruling: "SELL", score: -9, agents: [vote("A", START + 2 * HOUR, -1), vote("B", START + 2 * HOUR, -4), vote("C", START + 2 * HOUR, -6)] };
    for (const h of [first, second, third]) memo.set(h.at, h);
    expect(memo.get(START)).toEqual(first);
    expect(memo.get(START + HOUR)).toEqual(second);
    expect(memo.get(START + 2 * HOUR)).toEqual(third);
  });

  it("does not memoise an hour before the first one stored or off the hour (the caller computes it again)", () => {
    const memo = new ScoredHourMemo();
    memo.set(START, { at: START, ruling: "BUY", score: 1 });
    memo.set(START - HOUR, { at: START - HOUR, ruling: "SELL", score: -1 });
    memo.set(START + HOUR / 2, { at: START + HOUR / 2, ruling: "SELL", score: -1 });
    expect(memo.get(START - HOUR)).toBeUndefined();
    expect(memo.get(START + HOUR / 2)).toBeUndefined();
    expect(memo.get(START)).toEqual({ at: START, ruling: "BUY", score: 1 });
  });
});
