import { describe, expect, it } from "vitest";
import { signedOffInPeriod, type TaoSignoff } from "../../../src/application/tao-signoff.js";
import { periodMarkFor, sinceFor, type SprintMark } from "../../../src/domain/ghost/sprints.js";

const T = Date.UTC(2026, 4, 16);
const mark = (id: string, scope: SprintMark["scope"], at: number, recordedAt: string): SprintMark => ({ id, scope, at, reason: id, recordedAt });
const signoff = (over: Partial<TaoSignoff>): TaoSignoff => ({ by: "alice", recordedAt: "2026-11-25T12:00:00Z", at: T, paperTradesValidated: 10, testsPassing: 10, ...over });

describe("a TAO sign-off belongs to the track-record period it was given in", () => {
  const launch = mark("launch", "ALL", T - 86_400_000, "2026-11-25T11:00:00Z");
  it("holds until a restart of TAO or ALL, which voids it even at the very same market instant", () => {
    const before = [launch];
    const given = signoff({ periodMarkId: periodMarkFor("TAO", before)?.id });
    expect(signedOffInPeriod(given, { sinceMs: sinceFor("TAO", before), markId: periodMarkFor("TAO", before)?.id ?? null })).toBe(true);
    // A BTC restart leaves TAO's period alone.
    const btc = [...before, mark("btc", "BTC", T, "2026-11-25T12:01:00Z")];
    expect(signedOffInPeriod(given, { sinceMs: sinceFor("TAO", btc), markId: periodMarkFor("TAO", btc)?.id ?? null })).toBe(true);
    // A TAO restart at the sign-off's own market time (a replay stopped at the end of its data).
    const tao = [...btc, mark("tao", "TAO", T, "2026-11-25T12:02:00Z")];
    expect(sinceFor("TAO", tao)).toBe(given.at);
    expect(signedOffInPeriod(given, { sinceMs: sinceFor("TAO", tao), markId: periodMarkFor("TAO", tao)?.id ?? null })).toBe(false);
  });

  it("a sign-off stored before periods were named compares market times", () => {
    const old = signoff({});
    expect(signedOffInPeriod(old, { sinceMs: T - 1, markId: "any" })).toBe(true);
    expect(signedOffInPeriod(old, { sinceMs: T + 1, markId: "any" })).toBe(false);
    expect(signedOffInPeriod(null, { sinceMs: 0, markId: null })).toBe(false);
  });
});
