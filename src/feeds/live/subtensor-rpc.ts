import { z } from "zod";
import type { NetworkFigure } from "../../domain/signals/network-figures.js";
import type { Clock } from "../../runtime/clocks/clock.js";
import type { FigureProvider } from "./figure-provider.js";
import { callJsonRpc } from "./json-rpc.js";
import { ProviderError } from "./provider-error.js";

/** The Opentensor Foundation's public Finney (mainnet) entry point; it answers JSON-RPC over HTTPS POST. */
export const SUBTENSOR_RPC_URL = "https://entrypoint-finney.opentensor.ai";

/*
 * StorageValue keys are twox128(pallet) ++ twox128(item), fixed by the names alone. They are
 * written out rather than hashed at run time so the service needs no xxHash dependency;
 * test/unit/feeds/live/subtensor-storage-keys.test.ts recomputes them from the names.
 */
/** SubtensorModule.TotalStake: u64, rao. */
export const TOTAL_STAKE_KEY = "0x658faa385070e074c85bf6b568cf05554f85a3603259384a5fa5494b7d7fdb8c";
/** SubtensorModule.TotalIssuance: u64, rao. */
export const TOTAL_ISSUANCE_KEY = "0x658faa385070e074c85bf6b568cf055557c875e4cff74148e4628f264b974c80";
/** SubtensorModule.TotalNetworks: u16. */
export const TOTAL_NETWORKS_KEY = "0x658faa385070e074c85bf6b568cf05555f3bb7bcd0a076a48abf8c256d221721";

/**
 * state_getStorage's answer for a fixed-width integer: its SCALE bytes as 0x-hex. Null (item
 * never written) fails here too: these totals are always set on mainnet, so null means a wrong
 * chain or key, not a zero.
 */
const scaleUint = (bytes: number) => z.string().regex(new RegExp(`^0x[0-9a-fA-F]{${2 * bytes}}$`), `not ${bytes} SCALE bytes`);
const u64 = scaleUint(8);
const u16 = scaleUint(2);

/** SCALE integers are little-endian; BigInt keeps every rao of a u64 (totals pass 2^53). */
export function decodeLittleEndian(hex: string): bigint {
  let value = 0n;
  for (let i = hex.length - 2; i >= 2; i -= 2) value = (value << 8n) | BigInt(parseInt(hex.slice(i, i + 2), 16));
  return value;
}

/**
 * TotalStake / TotalIssuance × 100, rounded half up to 0.01 in integer arithmetic so no digit is
 * lost to doubles first. Null when the ratio cannot be a share (no issuance, stake above it).
 */
export function stakingRatioPct(stakeRao: bigint, issuanceRao: bigint): number | null {
  if (issuanceRao <= 0n || stakeRao > issuanceRao) return null;
  const hundredths = (stakeRao * 20_000n + issuanceRao) / (2n * issuanceRao);
  return Number(hundredths) / 100;
}

/**
 * The Bittensor chain's staking ratio and subnet count, read from SubtensorModule storage. The
 * three reads go out together and are not pinned to one block: between blocks (12 s) the ratio
 * moves by far less than the 0.01 % published. Storage carries no timestamp, so figures are
 * stamped with the fetch time.
 */
export class SubtensorProvider implements FigureProvider {
  readonly id = "subtensor";
  readonly keys = ["TAO_STAKING_RATIO", "TAO_SUBNET_COUNT"] as const;

  constructor(
    private readonly clock: Clock,
    private readonly url = SUBTENSOR_RPC_URL,
    private readonly timeoutMs = 10_000,
  ) {}

  async poll(): Promise<readonly NetworkFigure[]> {
    const read = (key: string, result: z.ZodString) =>
      callJsonRpc({ provider: this.id, url: this.url, method: "state_getStorage", params: [key], result, timeoutMs: this.timeoutMs });
    const [stake, issuance, networks] = await Promise.all([read(TOTAL_STAKE_KEY, u64), read(TOTAL_ISSUANCE_KEY, u64), read(TOTAL_NETWORKS_KEY, u16)]);
    const ratio = stakingRatioPct(decodeLittleEndian(stake), decodeLittleEndian(issuance));
    if (ratio === null) throw new ProviderError(this.id, "malformed", `TotalStake ${decodeLittleEndian(stake)} is not a share of TotalIssuance ${decodeLittleEndian(issuance)}`);
    const observedAt = this.clock.now();
    return [
      { key: "TAO_STAKING_RATIO", value: ratio, observedAt, source: this.id },
      { key: "TAO_SUBNET_COUNT", value: Number(decodeLittleEndian(networks)), observedAt, source: this.id },
    ];
  }
}
