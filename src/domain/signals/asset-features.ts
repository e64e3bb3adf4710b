import type { TechnicalValues } from "../indicators/technical-indicators.js";
import { signalStatus } from "./signal-status.js";
import type { Asset, SignalStatus } from "./signal-keys.js";

/** One per-asset feature with the same liveness rule as the public signals. */
export interface FeatureReading {
  readonly value: number | null;
  readonly observedAt: number | null;
  readonly status: SignalStatus;
}

/** Per-asset engine inputs beyond the 27 public signals (DECISIONS 7). */
export interface AssetFeatures {
  readonly asset: Asset;
  readonly price: FeatureReading;
  readonly rsi1h: FeatureReading;
  readonly rsi4h: FeatureReading;
  readonly ema200: FeatureReading;
  readonly ema200DistancePct: FeatureReading;
  readonly macdHistogram: FeatureReading;
  readonly volumeRatio: FeatureReading;
  /** Perpetual funding, % per 8 h; DEAD where no funding series exists (TAO; SOL before 2025). */
  readonly fundingRatePct: FeatureReading;
  /** Asset price in BTC (close / BTC close of the same hour); DEAD for BTC itself. */
  readonly ratioToBtc: FeatureReading;
  /** 7-day % change of Solana DeFi TVL; DEAD for other assets and outside the bundled range. */
  readonly defiTvlTrendPct: FeatureReading;
}

export interface ObservedTechnicals {
  readonly values: TechnicalValues;
  /** Close time of the bar the values come from. */
  readonly observedAt: number;
}

export interface ObservedValue {
  readonly value: number;
  readonly observedAt: number;
}

export interface AssetFeatureInputs {
  readonly asset: Asset;
  readonly tech1h: ObservedTechnicals | null;
  readonly tech4h: ObservedTechnicals | null;
  readonly funding: ObservedValue | null;
  readonly btcPrice: ObservedValue | null;
  readonly tvlTrend: ObservedValue | null;
}

const HOUR = 3_600_000;
const REFRESH = { h1: HOUR, h4: 4 * HOUR, funding: 8 * HOUR, tvl: 24 * HOUR } as const;

function feature(value: number | null | undefined, observedAt: number | null, refreshMs: number, now: number): FeatureReading {
  if (value === null || value === undefined || observedAt === null) return { value: null, observedAt: null, status: "DEAD" };
  return { value, observedAt, status: signalStatus(observedAt, refreshMs, now) };
}

/** Assembles an asset's features from feed observations; missing inputs are DEAD, never invented. */
export function buildAssetFeatures(input: AssetFeatureInputs, now: number): AssetFeatures {
  const h1 = input.tech1h;
  const h1At = h1?.observedAt ?? null;
  const f1 = (v: number | null | undefined) => feature(v, h1At, REFRESH.h1, now);
  const ratio =
    input.asset !== "BTC" && h1 && input.btcPrice && input.btcPrice.value > 0 && input.btcPrice.observedAt === h1.observedAt
      ? h1.values.close / input.btcPrice.value
      : null;
  return {
    asset: input.asset,
    price: f1(h1?.values.close),
    rsi1h: f1(h1?.values.rsi14),
    rsi4h: feature(input.tech4h?.values.rsi14, input.tech4h?.observedAt ?? null, REFRESH.h4, now),
    ema200: f1(h1?.values.ema200),
    ema200DistancePct: f1(h1?.values.ema200DistancePct),
    macdHistogram: f1(h1?.values.macdHistogram),
    volumeRatio: f1(h1?.values.volumeRatio),
    fundingRatePct: feature(input.funding?.value, input.funding?.observedAt ?? null, REFRESH.funding, now),
    ratioToBtc: f1(ratio),
    defiTvlTrendPct: feature(input.tvlTrend?.value, input.tvlTrend?.observedAt ?? null, REFRESH.tvl, now),
  };
}
