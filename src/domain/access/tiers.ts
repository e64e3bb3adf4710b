/** Tiers of SPEC.md "Tiers"; a higher tier may call every endpoint of a lower one. */
export const TIERS = ["free", "basic", "pro"] as const;
export type Tier = (typeof TIERS)[number];

const RANK: Record<Tier, number> = { free: 0, basic: 1, pro: 2 };

export function tierAllows(have: Tier, need: Tier): boolean {
  return RANK[have] >= RANK[need];
}

export interface TierLimits {
  readonly dailyQuota: number;
  readonly perMinute: number;
}

export type TierLimitTable = Readonly<Record<Tier, TierLimits>>;
