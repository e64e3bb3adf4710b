import type { Regime, TaoRuling } from "../market/vocabulary.js";
import type { AssetRules } from "./asset-rules.js";
import type { BarInput, LiquidityStatus, RegimeView } from "./bar-input.js";
import { roundTo } from "../numbers/round-to.js";
import { exactTotal, qualityScore, type QualityScore } from "./quality-score.js";
import { sessionOpen } from "./weekend-session.js";
import { councilGatePasses } from "../council/entry-gate.js";

/** Gate names in SPEC order; `trigger` names the first one that fails. */
export const GATE_NAMES = [
  "liquidity",
  "judiciary",
  "council",
  "emaProximity",
  "regime",
  "quality",
  "momentum",
  "session",
] as const;
export type GateName = (typeof GATE_NAMES)[number];

export interface GateReport {
  readonly liquidity: boolean;
  readonly liquidityStatus: LiquidityStatus;
  readonly judiciary: boolean;
  readonly council: boolean;
  readonly emaProximity: boolean;
  readonly regime: boolean;
  readonly quality: boolean;
  readonly momentum: boolean;
  readonly session: boolean;
  readonly gatesMet: number;
  /** `<gate>: <why>` for the first failing gate; null when all 8 pass. */
  readonly trigger: string | null;
  readonly qualityScore: QualityScore;
  readonly emaDistancePct: number | null;
  /** All 8 pass and liquidity is not INSUFFICIENT. */
  readonly allowEntry: boolean;
}

const BULLISH: ReadonlySet<TaoRuling> = new Set(["STRONG_BUY", "BUY", "ACCUMULATE"]);
const FAVOURABLE: ReadonlySet<Regime> = new Set(["BULL_TRENDING", "RISK_ON", "ACCUMULATION", "WHALE_ACCUMULATION"]);

export function isBullish(ruling: TaoRuling): boolean {
  return BULLISH.has(ruling);
}

/** DECISIONS 7: the four bullish regimes, and LOW_VOLATILITY only with `breakout_imminent`. */
export function regimeFavourable(r: RegimeView | null): boolean {
  if (r === null) return false;
  return FAVOURABLE.has(r.regime) || (r.regime === "LOW_VOLATILITY" && r.breakoutImminent);
}

export function evaluateGates(input: BarInput, rules: AssetRules): GateReport {
  const why = new Map<GateName, string>();
  const { candle, judiciary, council, regime, indicators, liquidity } = input;

  // Gate 0. In replay there is no order book (status UNKNOWN, depth null): only the volume half
  // is checked (DECISIONS 7). Live, depth is part of the gate: one not measured (a failed probe)
  // closes it, as SPEC's "depth >= 50,000 USD" cannot be said to hold.
  const volumeOk = indicators.volumeRatio !== null && indicators.volumeRatio >= rules.minVolumeRatio;
  const depthOk = liquidity.depthUsd === null ? !liquidity.live : liquidity.depthUsd >= rules.minDepthUsd;
  const liquidityGate = liquidity.status !== "INSUFFICIENT" && volumeOk && depthOk;
  if (!liquidityGate) {
    why.set(
      "liquidity",
      liquidity.status === "INSUFFICIENT"
        ? "liquidity INSUFFICIENT"
        : !depthOk
          ? liquidity.depthUsd === null
            ? "depth unknown (the live order-book probe has no answer)"
            : `depth ${liquidity.depthUsd} USD below ${rules.minDepthUsd}`
          : `volume ratio ${fmt(indicators.volumeRatio)} below ${rules.minVolumeRatio}`,
    );
  }

  const judiciaryGate = judiciary !== null && isBullish(judiciary.ruling);
  if (!judiciaryGate) why.set("judiciary", judiciary === null ? "no judiciary verdict" : `ruling ${judiciary.ruling}`);

  let councilGate = true;
  if (rules.councilMinConfidence === null && rules.judiciaryMinConfidence !== null) {
    const min = rules.judiciaryMinConfidence;
    councilGate = judiciary !== null && isBullish(judiciary.ruling) && judiciary.confidence >= min;
    if (!councilGate) {
      why.set(
        "council",
        judiciary === null
          ? "no judiciary verdict"
          : !isBullish(judiciary.ruling)
            ? `judiciary ruling ${judiciary.ruling}`
            : `judiciary calibrated confidence ${judiciary.confidence} below ${min}`,
      );
    }
  } else if (rules.councilMinConfidence !== null) {
    councilGate = council !== null && rules.asset !== "ETH" && councilGatePasses({ asset: rules.asset, ruling: council.ruling, confidence: council.confidence });
    if (!councilGate) {
      why.set(
        "council",
        council === null
          ? "no council verdict"
          : !isBullish(council.ruling)
            ? `ruling ${council.ruling}`
            : `calibrated confidence ${council.confidence} below ${rules.councilMinConfidence}`,
      );
    }
  }

  // Rounded to 1e-9 % so a price exactly 3.5 % above the EMA is not lost to binary fractions.
  const emaDistancePct =
    indicators.ema200 === null || indicators.ema200 <= 0
      ? null
      : roundTo(((candle.c - indicators.ema200) / indicators.ema200) * 100, 9);
  const emaGate =
    emaDistancePct !== null && emaDistancePct >= rules.emaProximityMinPct && emaDistancePct <= rules.emaProximityMaxPct;
  if (!emaGate) why.set("emaProximity", `EMA-200 distance ${fmt(emaDistancePct)} % outside ${rules.emaProximityMinPct}..${rules.emaProximityMaxPct}`);

  const favourable = regimeFavourable(regime);
  if (!favourable) why.set("regime", regime === null ? "no regime" : `regime ${regime.regime} not favourable`);

  // The council's confidence where the asset has a council gate; ETH has only its judiciary.
  const decisionConfidence =
    rules.councilMinConfidence !== null && council !== null ? council.confidence : (judiciary?.confidence ?? null);
  const quality = qualityScore({
    emaDistancePct,
    rsi1h: indicators.rsi1h,
    volumeRatio: indicators.volumeRatio,
    decisionConfidence,
    regimeConfidence: regime?.confidence ?? null,
    regimeFavourable: favourable,
  });
  const qualityExact = exactTotal(quality);
  const qualityGate = qualityExact >= rules.minQualityScore;
  // Truncated, not rounded: a 64.998 reads "64.99 below 65", not "65 below 65".
  if (!qualityGate) why.set("quality", `quality ${Math.floor(qualityExact * 100) / 100} below ${rules.minQualityScore}`);

  const momentumGate = indicators.rsi1h !== null && indicators.rsi1h >= rules.minRsi1h;
  if (!momentumGate) why.set("momentum", `RSI(1h) ${fmt(indicators.rsi1h)} below ${rules.minRsi1h}`);

  const sessionGate = !rules.weekendBlock || sessionOpen(candleClose(candle.t), liquidity.status);
  if (!sessionGate) why.set("session", "weekend block (Fri 22:00 - Sun 06:00 Europe/Prague)");

  const passed = [liquidityGate, judiciaryGate, councilGate, emaGate, favourable, qualityGate, momentumGate, sessionGate];
  const gatesMet = passed.filter(Boolean).length;
  const firstFailing = GATE_NAMES.find((g) => why.has(g));
  return {
    liquidity: liquidityGate,
    liquidityStatus: liquidity.status,
    judiciary: judiciaryGate,
    council: councilGate,
    emaProximity: emaGate,
    regime: favourable,
    quality: qualityGate,
    momentum: momentumGate,
    session: sessionGate,
    gatesMet,
    trigger: firstFailing === undefined ? null : `${firstFailing}: ${why.get(firstFailing) ?? ""}`,
    qualityScore: quality,
    emaDistancePct,
    allowEntry: gatesMet === 8 && liquidity.status !== "INSUFFICIENT",
  };
}

/** Hourly bars: the decision time is the bar's close, one hour after its open time. */
export function candleClose(openTime: number): number {
  return openTime + 3_600_000;
}

function fmt(x: number | null): string {
  return x === null ? "unknown" : String(Math.round(x * 100) / 100);
}
