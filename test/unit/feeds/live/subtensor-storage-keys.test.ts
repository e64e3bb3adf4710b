import xxhash from "xxhash-wasm";
import { beforeAll, describe, expect, it } from "vitest";
import { TOTAL_ISSUANCE_KEY, TOTAL_NETWORKS_KEY, TOTAL_STAKE_KEY } from "../../../../src/feeds/live/subtensor-rpc.js";

/** twox128 as substrate defines it: xxh64 with seeds 0 and 1, each as 8 little-endian bytes. */
let twox128: (name: string) => string;

const storageValueKey = (pallet: string, item: string) => `0x${twox128(pallet)}${twox128(item)}`;

describe("subtensor storage keys are twox128(pallet) ++ twox128(item) of their names", () => {
  beforeAll(async () => {
    const { h64 } = await xxhash();
    const le = (v: bigint) => {
      const b = Buffer.alloc(8);
      b.writeBigUInt64LE(v);
      return b.toString("hex");
    };
    twox128 = (name) => le(h64(name, 0n)) + le(h64(name, 1n));
  });

  it("reproduces keys every substrate chain shares, so the hashing itself is right", () => {
    // Published in the substrate docs and polkadot.js; the same on every chain with these pallets.
    expect(storageValueKey("Timestamp", "Now")).toBe("0xf0c365c3cf59d671eb72da0e7a4113c49f1f0515f462cdcf84e0f1d6045dfcbb");
    expect(storageValueKey("System", "Account")).toBe("0x26aa394eea5630e07c48ae0c9558cef7b99d880ec681799c0cf30e8886371da9");
  });

  it("matches the constants the provider sends", () => {
    expect(TOTAL_STAKE_KEY).toBe(storageValueKey("SubtensorModule", "TotalStake"));
    expect(TOTAL_ISSUANCE_KEY).toBe(storageValueKey("SubtensorModule", "TotalIssuance"));
    expect(TOTAL_NETWORKS_KEY).toBe(storageValueKey("SubtensorModule", "TotalNetworks"));
  });
});
