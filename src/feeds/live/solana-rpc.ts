import { z } from "zod";
import type { NetworkFigure } from "../../domain/signals/network-figures.js";
import type { Clock } from "../../runtime/clocks/clock.js";
import type { FigureProvider } from "./figure-provider.js";
import { callJsonRpc } from "./json-rpc.js";
import { ProviderError } from "./provider-error.js";

export const SOLANA_RPC_URL = "https://api.mainnet-beta.solana.com";

/** getRecentPerformanceSamples' maximum: 720 one-minute samples, 12 hours. */
const SAMPLE_LIMIT = 720;
const HOUR_SECS = 3_600;

/** getRecentPerformanceSamples: 60-second samples, newest first. */
const samplesSchema = z.array(
  z
    .object({
      slot: z.number().int().nonnegative(),
      numSlots: z.number().int().nonnegative(),
      numTransactions: z.number().int().nonnegative(),
      numNonVoteTransactions: z.number().int().nonnegative(),
      samplePeriodSecs: z.number().int().positive(),
    })
    .refine((s) => s.numNonVoteTransactions <= s.numTransactions, "more non-vote transactions than transactions"),
);

/**
 * getVoteAccounts: stake in lamports. Totals pass 2^53, which JSON.parse reads as the nearest
 * double, so no `.int()` (zod 4 limits it to safe integers); only a ratio is taken from them.
 */
const voteAccount = z.object({ votePubkey: z.string(), activatedStake: z.number().nonnegative() });
const voteAccountsSchema = z.object({ current: z.array(voteAccount), delinquent: z.array(voteAccount) });

/** getSupply: lamports, with the slot it was read at. */
const supplySchema = z.object({
  context: z.object({ slot: z.number().int().nonnegative() }),
  value: z.object({ total: z.number().positive(), circulating: z.number().nonnegative(), nonCirculating: z.number().nonnegative() }),
});

type Sample = z.infer<typeof samplesSchema>[number];

/**
 * Non-vote TPS of the newest hour of samples, and its % change against the samples before it.
 * Vote transactions are validators' consensus votes: their rate follows the validator count and
 * slot rate, not use of the network, and make up about three quarters of all transactions; so
 * throughput here means user transactions (numNonVoteTransactions), as explorers report it.
 * The change needs at least an hour of earlier samples; with fewer it is null.
 */
export function tpsFigures(samples: readonly Sample[]): { tps: number; changePct: number | null } | null {
  const newestFirst = [...samples].sort((a, b) => b.slot - a.slot);
  let recentTx = 0;
  let recentSecs = 0;
  let beforeTx = 0;
  let beforeSecs = 0;
  for (const s of newestFirst) {
    if (recentSecs < HOUR_SECS) {
      recentTx += s.numNonVoteTransactions;
      recentSecs += s.samplePeriodSecs;
    } else {
      beforeTx += s.numNonVoteTransactions;
      beforeSecs += s.samplePeriodSecs;
    }
  }
  if (recentSecs === 0) return null;
  const tps = recentTx / recentSecs;
  const before = beforeSecs >= HOUR_SECS ? beforeTx / beforeSecs : null;
  const changePct = before !== null && before > 0 ? (tps / before - 1) * 100 : null;
  return { tps, changePct };
}

/** Active stake (current + delinquent vote accounts) / total supply × 100. */
export function stakingParticipationPct(votes: z.infer<typeof voteAccountsSchema>, supply: z.infer<typeof supplySchema>): number {
  let stake = 0;
  for (const v of [...votes.current, ...votes.delinquent]) stake += v.activatedStake;
  return (stake / supply.value.total) * 100;
}

const round = (v: number, places: number) => Math.round(v * 10 ** places) / 10 ** places;

/**
 * SOL network throughput from the public Solana JSON-RPC. Samples carry no timestamp, so a
 * figure is stamped with the time it was fetched; a halted cluster would keep serving its last
 * samples, which is an outage signal (RISK_WARDEN's NETWORK_OUTAGE), not read here.
 */
export class SolanaTpsProvider implements FigureProvider {
  readonly id = "solana-tps";
  readonly keys = ["SOL_NETWORK_TPS", "SOL_NETWORK_TPS_CHANGE"] as const;

  constructor(
    private readonly clock: Clock,
    private readonly url = SOLANA_RPC_URL,
    private readonly timeoutMs = 10_000,
  ) {}

  async poll(): Promise<readonly NetworkFigure[]> {
    const samples = await callJsonRpc({
      provider: this.id,
      url: this.url,
      method: "getRecentPerformanceSamples",
      params: [SAMPLE_LIMIT],
      result: samplesSchema,
      timeoutMs: this.timeoutMs,
    });
    const figures = tpsFigures(samples);
    if (figures === null) throw new ProviderError(this.id, "malformed", "no performance samples");
    const observedAt = this.clock.now();
    const out: NetworkFigure[] = [{ key: "SOL_NETWORK_TPS", value: round(figures.tps, 1), observedAt, source: this.id }];
    if (figures.changePct !== null) out.push({ key: "SOL_NETWORK_TPS_CHANGE", value: round(figures.changePct, 2), observedAt, source: this.id });
    return out;
  }
}

/**
 * SOL staking participation from the public Solana JSON-RPC. getVoteAccounts is a large answer
 * (every validator), so it has its own provider, polled hourly: stake only changes per epoch.
 */
export class SolanaStakeProvider implements FigureProvider {
  readonly id = "solana-stake";
  readonly keys = ["SOL_STAKING_PARTICIPATION"] as const;

  constructor(
    private readonly clock: Clock,
    private readonly url = SOLANA_RPC_URL,
    private readonly timeoutMs = 20_000,
  ) {}

  async poll(): Promise<readonly NetworkFigure[]> {
    const common = { provider: this.id, url: this.url, timeoutMs: this.timeoutMs };
    const [votes, supply] = await Promise.all([
      callJsonRpc({ ...common, method: "getVoteAccounts", params: [{ commitment: "finalized" }], result: voteAccountsSchema }),
      callJsonRpc({ ...common, method: "getSupply", params: [{ commitment: "finalized", excludeNonCirculatingAccountsList: true }], result: supplySchema }),
    ]);
    const pct = stakingParticipationPct(votes, supply);
    if (pct > 100) throw new ProviderError(this.id, "malformed", `active stake exceeds total supply (${pct.toFixed(2)} %)`);
    return [{ key: "SOL_STAKING_PARTICIPATION", value: round(pct, 2), observedAt: this.clock.now(), source: this.id }];
  }
}
