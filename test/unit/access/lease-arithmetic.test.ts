import { describe, expect, it } from "vitest";
import {
  DEFAULT_LEASE_POLICY,
  blockCap,
  grantFor,
  grownBlock,
  leaseEnd,
  renewal,
  shrunkBlock,
  usedAsSeen,
  wantFor,
  type LeasePolicy,
} from "../../../src/domain/access/lease-arithmetic.js";

const policy: LeasePolicy = { lifetimeMs: 1_000, maxBlock: 1_000, share: 8 };

describe("quota lease arithmetic", () => {
  it("never grants more than what is left, nor a negative or fractional block", () => {
    expect(grantFor(100, 0, 30)).toBe(30);
    expect(grantFor(100, 90, 30)).toBe(10);
    expect(grantFor(100, 100, 1)).toBe(0);
    expect(grantFor(100, 120, 5)).toBe(0);
    expect(grantFor(100, 10, 2.7)).toBe(2);
  });

  it("takes an eighth of what is left at most, capped, and one call at a time near the limit", () => {
    expect(blockCap(policy, 1_000_000_000, 0)).toBe(1_000);
    expect(blockCap(policy, 10_000, 0)).toBe(1_000);
    expect(blockCap(policy, 100, 0)).toBe(12);
    expect(blockCap(policy, 100, 84)).toBe(2);
    // The last 15 calls of a window go one by one.
    for (let count = 85; count <= 100; count++) expect(blockCap(policy, 100, count)).toBe(1);
  });

  it("asks for the block, or for every request already waiting", () => {
    expect(wantFor(policy, { limit: 10_000, count: 0, block: 64, demand: 1 })).toBe(64);
    expect(wantFor(policy, { limit: 10_000, count: 9_990, block: 64, demand: 1 })).toBe(1);
    expect(wantFor(policy, { limit: 10_000, count: 9_990, block: 64, demand: 7 })).toBe(7);
    expect(wantFor(policy, { limit: 10_000, count: 0, block: 1, demand: 0 })).toBe(1);
  });

  it("doubles a block used up within its lifetime and shrinks one that outlived it to what it used", () => {
    expect([1, 2, 4, 512, 999].map((b) => grownBlock(policy, b))).toEqual([2, 4, 8, 1_000, 1_000]);
    expect(shrunkBlock(policy, 0)).toBe(1);
    expect(shrunkBlock(policy, 37)).toBe(37);
    expect(shrunkBlock(policy, 5_000)).toBe(1_000);
  });

  it("ends a block at its lifetime or at its window's end", () => {
    expect(leaseEnd(policy, 10_000, 60_000)).toBe(11_000);
    expect(leaseEnd(policy, 59_500, 60_000)).toBe(60_000);
  });

  it("renews a holding in one step: take the difference or give the excess back", () => {
    expect(renewal(3, 10)).toEqual({ take: 7, giveBack: 0 });
    expect(renewal(10, 3)).toEqual({ take: 0, giveBack: 7 });
    expect(renewal(4, 4)).toEqual({ take: 0, giveBack: 0 });
  });

  it("counts this process's unused calls as not used", () => {
    expect(usedAsSeen(40, 12)).toBe(28);
    expect(usedAsSeen(3, 5)).toBe(0);
  });

  it("keeps used calls plus every outstanding lease within the limit, and ends exactly at it", () => {
    // Five processes share one window; a seeded random schedule of requests, expiries and give-backs.
    let seed = 17;
    const random = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
    const limit = 1_000;
    let count = 0;
    let used = 0;
    const procs = Array.from({ length: 5 }, () => ({ held: 0, block: 1, seen: 0 }));
    for (let step = 0; step < 20_000; step++) {
      const p = procs[Math.floor(random() * procs.length)] as (typeof procs)[number];
      if (random() < 0.05 && p.held > 0) {
        // The block expired: give back everything unused.
        count -= p.held;
        p.held = 0;
        p.block = shrunkBlock(DEFAULT_LEASE_POLICY, 0);
      } else if (p.held > 0) {
        p.held -= 1;
        used += 1;
      } else {
        const want = wantFor(DEFAULT_LEASE_POLICY, { limit, count: p.seen, block: p.block, demand: 1 + Math.floor(random() * 3) });
        const granted = grantFor(limit, count, want);
        count += granted;
        p.held += granted;
        p.seen = count;
        p.block = grownBlock(DEFAULT_LEASE_POLICY, p.block);
      }
      expect(count).toBe(used + procs.reduce((s, x) => s + x.held, 0));
      expect(count).toBeLessThanOrEqual(limit);
    }
    expect(used).toBe(limit);
  });
});
