/**
 * Response types of the Market Intelligence API, written from SPEC.md and DECISIONS.md.
 * test/integration/sdk/openapi-conformance.test.ts checks them against /v1/openapi.json, so a
 * drift between these and the served schemas fails a test instead of a customer's build.
 */

export type Tier = "free" | "basic" | "pro";
export type Ruling = "STRONG_BUY" | "BUY" | "ACCUMULATE" | "HOLD" | "REDUCE" | "SELL" | "STRONG_SELL";
export type TaoRuling = Ruling | "AVOID";
export type SolRuling = "STRONG_BUY" | "BUY" | "ACCUMULATE" | "HOLD" | "REDUCE" | "AVOID";
export type Regime =
  | "BULL_TRENDING"
  | "BEAR_TRENDING"
  | "HIGH_VOLATILITY"
  | "DISTRIBUTION"
  | "WHALE_ACCUMULATION"
  | "RISK_ON"
  | "LOW_VOLATILITY"
  | "ACCUMULATION";
export type Asset = "BTC" | "ETH" | "SOL" | "TAO";

export interface CacheInfo {
  readonly cached: boolean;
  readonly cache_ttl_seconds: number;
}

export interface Health {
  readonly status: string;
  readonly version: string;
  readonly environment: string;
  readonly timestamp: string;
}

export interface IssuedKey {
  readonly api_key: string;
  readonly key_prefix: string;
  readonly tier: Tier;
  readonly daily_limit: number;
  /** Null for a key made without a name (the CLI's, or its rotations). */
  readonly name: string | null;
  readonly email: string | null;
  readonly created_at: string;
  readonly message: string;
}

export interface AgentVote {
  readonly name: string;
  readonly vote: Ruling;
  /** Calibrated: the probability, from this agent's own walk-forward map, of a move in its vote's direction. */
  readonly confidence: number;
  /** The agent's own figure: what the Chief Judge weighs and the veto reads. */
  readonly raw_confidence: number;
  readonly confidence_basis: ConfidenceBasis;
  readonly reasoning: string | null;
}

/** Beside every list of agent votes: how their confidences were obtained. */
export interface AgentsConfidenceBasis {
  /** per_agent: each vote is calibrated on its agent's own outcomes (see its confidence_basis); uncalibrated: stored before agent votes were calibrated. */
  readonly kind: "per_agent" | "uncalibrated";
  readonly horizon_hours: number | null;
  readonly fitted_at: string | null;
  readonly note: string;
}

export interface MacroContext {
  readonly assessment: string;
  readonly key_driver: string;
  readonly primary_risk: string;
}

/** How a published confidence was obtained (DECISIONS 7, "Confidence"). */
export interface ConfidenceBasis {
  /** isotonic: fitted on outcomes that showed skill; base_rate: no measurable skill or too few outcomes; prior: under a week of outcomes (0.5); uncalibrated: stored before calibration existed; abstained (agent votes only): no data, a fixed low HOLD. */
  readonly kind: "isotonic" | "base_rate" | "prior" | "uncalibrated" | "abstained";
  /** confidence is the probability of a move in the ruling's direction over this horizon. */
  readonly horizon_hours: number | null;
  /** Market time of the map's fit: only outcomes matured by then were used. */
  readonly fitted_at: string | null;
  /** What this confidence is, in plain words: calibrated or not, and on what. */
  readonly note: string;
}

export interface Verdict extends CacheInfo {
  readonly ruling: Ruling;
  readonly confidence: number;
  readonly confidence_basis: ConfidenceBasis;
  readonly score: number;
  /** BTC's last hourly close when the verdict was made. */
  readonly btc_price: number;
  /** When the verdict was made. None is made while BTC has no live price: then this stays the last one's time. */
  readonly timestamp: string;
  readonly council_ruling: Ruling | null;
  readonly council_confidence: number | null;
  readonly council_confidence_basis: ConfidenceBasis | null;
  readonly council_consensus: string | null;
  readonly council_explanation: string | null;
  /** Who wrote `council_explanation`: the language model (it must state the computed ruling) or the service's template. */
  readonly council_explanation_source: "model" | "template" | null;
  readonly council_mode: "council" | "judiciary" | null;
  readonly agents: readonly AgentVote[] | null;
  /** How the votes' confidences were obtained (each vote also carries its own basis and raw figure). */
  readonly agents_confidence_basis: AgentsConfidenceBasis | null;
  readonly macro_context: MacroContext | null;
}

export interface RegimeCurrent extends CacheInfo {
  readonly regime: Regime;
  readonly confidence: number;
  readonly btc_price: number | null;
  readonly detected_at: string | null;
  readonly strength: string | null;
  readonly sub_regime: string | null;
  readonly volatility_state: string | null;
  readonly chop_score: number | null;
  readonly breakout_imminent: boolean | null;
  readonly compatible_strategies: readonly string[] | null;
  readonly incompatible_strategies: readonly string[] | null;
  readonly transition_probabilities: Readonly<Record<string, number>> | null;
  readonly regime_age_hours: number | null;
}

export interface RegimeHistory extends CacheInfo {
  readonly regimes: readonly { readonly regime: Regime; readonly confidence: number; readonly recorded_at: string }[];
  readonly total: number;
  readonly page: number;
  readonly per_page: number;
}

export interface MacroCalendar {
  readonly tier: "NONE" | "TIER1" | "TIER2" | "TIER3";
  readonly event_name: string | null;
  readonly hours_until: number;
  readonly is_active: boolean;
  readonly status: "CLEAR" | "WATCH" | "WARNING" | "BLACKOUT";
  /**
   * Up to this time the calendar lists every TIER1 release (FOMC decision, CPI, payrolls); after
   * it a CPI or payrolls day may be missing, so CLEAR no longer rules out a TIER1 day.
   */
  readonly complete_until: string | null;
}

export interface SignalItem {
  readonly key: string;
  readonly display_name: string;
  readonly category?: string;
  readonly value: number | null;
  readonly status: "LIVE" | "STALE" | "DEAD";
  readonly last_updated: string | null;
}

export interface SignalsSnapshot extends CacheInfo {
  readonly signals: readonly SignalItem[];
  readonly total_signals: number;
  readonly live_count: number;
  readonly stale_count: number;
  readonly dead_count: number;
  readonly coverage_pct: number;
  readonly macro_calendar: MacroCalendar;
  readonly timestamp: string;
}

export interface SignalHistoryPage extends CacheInfo {
  readonly items: readonly { readonly recorded_at: string; readonly signal_key: string; readonly display_name: string; readonly value: number }[];
  readonly total: number;
  readonly page: number;
  readonly per_page: number;
}

export interface CouncilSession extends CacheInfo {
  readonly ruling: Ruling;
  readonly confidence: number;
  readonly confidence_basis: ConfidenceBasis;
  readonly consensus: string;
  readonly score: number;
  readonly agents: readonly {
    readonly agent: string;
    readonly ruling: Ruling;
    /** Calibrated on this agent's own outcomes (see confidence_basis). */
    readonly confidence: number;
    /** The agent's own figure: what the Chief Judge weighs and the veto reads. */
    readonly raw_confidence: number;
    readonly confidence_basis: ConfidenceBasis;
    readonly thesis: string;
  }[];
  readonly agents_confidence_basis: AgentsConfidenceBasis;
  readonly agents_failed: number;
  readonly session_at: string;
}

/** A TAO or SOL agent's vote: calibrated confidence, the agent's own figure, and how it was obtained. */
export interface CouncilAgentVote {
  readonly ruling: string;
  /** Calibrated on this agent's own outcomes (see confidenceBasis). */
  readonly confidence: number;
  /** The agent's own figure: what the Chief Judge weighs and the veto reads. */
  readonly rawConfidence: number;
  readonly confidenceBasis: ConfidenceBasis;
}

export interface CouncilVerdict {
  readonly id: string;
  readonly ruling: string;
  readonly confidence: number;
  /** How `confidence` was obtained (DECISIONS 7, "Confidence"). */
  readonly confidenceBasis: ConfidenceBasis;
  readonly agentVotes: Readonly<Record<string, CouncilAgentVote>>;
  readonly agentVotesConfidenceBasis: AgentsConfidenceBasis;
  readonly riskFlags?: readonly string[];
  readonly chiefRationale: string | null;
  readonly plainExplanation: string | null;
  /** Who wrote `plainExplanation`: the language model (it must state the computed ruling) or the service's template. */
  readonly explanationSource: "model" | "template";
  readonly snapshotSignals: Readonly<Record<string, number | null>>;
  readonly createdAt: string;
}

/** Cached 60 s (DECISIONS 2), so it carries the cache fields. */
export interface SolCouncil extends CacheInfo {
  readonly verdict: CouncilVerdict | null;
  readonly nextRefreshMinutes: number;
}

/** `GET /v1/tao/council`, cached 60 s (DECISIONS 2); `POST /v1/tao/council/run` has the same envelope without the cache fields. */
export interface TaoCouncil extends Partial<CacheInfo> {
  readonly success: boolean;
  readonly verdict: CouncilVerdict | null;
  readonly detail: string | null;
}

export interface TaoGates {
  readonly liquidity: boolean;
  readonly liquidityStatus: string;
  readonly judiciary: boolean;
  readonly council: boolean;
  readonly emaProximity: boolean;
  readonly regime: boolean;
  readonly quality: boolean;
  readonly momentum: boolean;
  readonly session: boolean;
  readonly gatesMet: number;
  readonly trigger: string | null;
}

/** The open TAO trade in `TaoStatus` (SPEC "TAO status"). */
export interface TaoCurrentTrade {
  readonly entryPrice: number;
  readonly sizeTao: number;
  readonly pnlUsd: number;
  readonly pnlPct: number;
  readonly tp1Hit: boolean;
  readonly stopLoss: number;
  readonly tp1Target: number;
  readonly tp2Target: number;
  /** High-water mark since entry; null before the trail has anything to follow. */
  readonly hwm: number | null;
  /** Order-book depth in USD at entry; null when it was not measured (replay). */
  readonly liquidityAtEntry: number | null;
  readonly taoBtcRatioAtEntry: number | null;
  readonly daysSinceHalving: number | null;
}

/** The TAO verdict subset shown in `TaoStatus.latestVerdict`. */
export interface TaoStatusVerdict {
  readonly ruling: TaoRuling;
  readonly confidence: number;
  /** Each agent's vote, by agent name. */
  readonly agentVotes: Readonly<Record<string, { readonly ruling: TaoRuling; readonly confidence: number }>>;
  readonly riskFlags: readonly string[];
  readonly createdAt: string;
}

export interface TaoStatus extends Partial<CacheInfo> {
  readonly status: "WAITING" | "IN_TRADE";
  readonly currentTrade: TaoCurrentTrade | null;
  readonly latestVerdict: TaoStatusVerdict | null;
  readonly regime: string | null;
  /** Null when TAO's last hourly bar is over 2 hours old (no current figure). */
  readonly rsi1h: number | null;
  /** Null when TAO's last hourly bar is over 2 hours old. */
  readonly ema200: number | null;
  /** Latest TAO/USD; null when there is no current one (an open trade stays marked at the last close). */
  readonly taoPrice: number | null;
  readonly networkHealth: string;
  readonly liquidityStatus: string;
  readonly liquidityDepthUsd: number | null;
  readonly paperTradesValidated: number;
  readonly paperMode: boolean;
  readonly generatedAt: string;
  readonly gates: TaoGates;
}

/** The fields every asset's closed trade has; each asset's record adds its own (`BtcTrade`, …). */
export interface Trade {
  readonly id: string;
  readonly entryTime: string;
  readonly exitTime: string;
  readonly entryPrice: number;
  readonly exitPrice: number;
  readonly pnlUsd: number;
  readonly pnlPct: number;
  readonly tp1PnlUsd: number | null;
  readonly result: "WIN" | "LOSS";
  readonly mode: "A" | "B" | "C";
}

export interface BtcTrade extends Trade {
  readonly sizeBtc: number;
}

export interface EthTrade extends Trade {
  readonly sizeEth: number;
}

export interface SolTrade extends Trade {
  readonly sizeSol: number;
  readonly networkHealthAtEntry: "HEALTHY" | "DEGRADED" | "UNKNOWN";
}

export interface TaoTrade extends Trade {
  readonly sizeTao: number;
  /** Order-book depth in USD at entry; null when it was not measured (replay). */
  readonly liquidityAtEntry: number | null;
  readonly daysSinceHalving: number | null;
  readonly isPaper: boolean;
}

export interface TrackRecordStats {
  readonly totalTrades: number;
  readonly winRate: number;
  readonly totalPnl: number;
  readonly avgHoldMinutes: number;
  readonly bestTrade: number;
  readonly worstTrade: number;
}

/** TAO's record also counts its paper validation (SPEC "Track records"). */
export interface TaoTrackRecordStats extends TrackRecordStats {
  readonly validatedPaperTrades: number;
  readonly paperValidationTarget: number;
}

/** Cache fields: present on a cached answer, optional because SPEC lists only the data fields. */
export interface TrackRecord<T extends Trade = Trade, S extends TrackRecordStats = TrackRecordStats> extends Partial<CacheInfo> {
  readonly trades: readonly T[];
  readonly stats: S;
}

/** Each asset's track record, as `client.trackRecord(asset)` types it. */
export interface TrackRecords {
  readonly BTC: TrackRecord<BtcTrade>;
  readonly ETH: TrackRecord<EthTrade>;
  readonly SOL: TrackRecord<SolTrade>;
  readonly TAO: TrackRecord<TaoTrade, TaoTrackRecordStats>;
}

export interface GhostStats extends Partial<CacheInfo> {
  readonly validated_trades: number;
  readonly since: string;
  readonly total_pnl: number;
  readonly win_rate: number;
  readonly sprint: number;
  readonly tests_passing: number;
}

/** One row of a P&L breakdown (by entry mode, exit reason or year). */
export interface PerformanceGroupRow {
  readonly key: string;
  readonly trades: number;
  readonly wins: number;
  readonly winRatePct: number;
  readonly pnlUsd: number;
  readonly avgPnlPct: number;
}

/** Mean over the seeded draws and the 5th–95th percentile band. */
export interface BenchmarkBand {
  readonly mean: number;
  readonly p5: number;
  readonly p95: number;
}

/** A fall of realised equity from a previous peak (`start`) to a trough (`end`); `pct` is of that peak. */
export interface Drawdown {
  readonly usd: number;
  readonly pct: number;
  readonly hours: number;
  readonly start: string | null;
  readonly end: string | null;
}

/** GET /v1/ghost/performance?asset= (docs/evaluation.md, "Ghost Trader performance"). */
export interface GhostPerformance extends CacheInfo {
  readonly asset: Asset;
  readonly sprintSince: string;
  readonly from: string;
  readonly to: string;
  readonly days: number;
  readonly standingAside: boolean;
  readonly note: string | null;
  readonly trades: number;
  readonly wins: number;
  readonly losses: number;
  readonly winRatePct: number;
  readonly avgWinUsd: number;
  readonly avgLossUsd: number;
  readonly profitFactor: number | null;
  readonly expectancyUsd: number;
  readonly expectancyPct: number;
  readonly totalPnlUsd: number;
  readonly returnPct: number;
  readonly cagrPct: number | null;
  /** The largest fall in USD; `pct` is of that episode's peak. */
  readonly maxDrawdown: Drawdown;
  /** The largest fall in % of its peak, with its own dates (Calmar divides by it). */
  readonly maxRelativeDrawdown: Drawdown;
  readonly sharpe: number | null;
  readonly sortino: number | null;
  readonly calmar: number | null;
  readonly exposurePct: number;
  readonly feesUsd: number;
  readonly bestDay: { readonly date: string; readonly pnlUsd: number } | null;
  readonly worstDay: { readonly date: string; readonly pnlUsd: number } | null;
  readonly maxConsecutiveLosses: number;
  readonly byEntryMode: readonly PerformanceGroupRow[];
  readonly byExitReason: readonly PerformanceGroupRow[];
  readonly byYear: readonly PerformanceGroupRow[];
  readonly benchmarks: {
    readonly buyAndHold: { readonly returnPct: number; readonly capitalExposurePct: number; readonly scaledReturnPct: number; readonly scaledPnlUsd: number } | null;
    readonly randomEntry: {
      readonly seed: number;
      readonly draws: number;
      readonly tradesPerDraw: number;
      readonly everyEntry: { readonly entries: number; readonly winRatePct: number; readonly expectancyUsd: number; readonly expectancyPct: number; readonly profitFactor: number | null };
      readonly matched: { readonly profitFactor: BenchmarkBand | null; readonly expectancyUsd: BenchmarkBand; readonly expectancyPct: BenchmarkBand; readonly winRatePct: BenchmarkBand; readonly totalPnlUsd: BenchmarkBand } | null;
      readonly note: string | null;
    } | null;
    readonly note: string | null;
  };
  readonly costs: { readonly feeRate: number; readonly slippageRate: number };
}

export interface Candle {
  /** Unix epoch seconds of the candle open. */
  readonly t: number;
  readonly o: number;
  readonly h: number;
  readonly l: number;
  readonly c: number;
  readonly v: number;
}

export interface Candles extends CacheInfo {
  readonly asset: Asset;
  readonly interval: "1h" | "4h" | "1d";
  readonly candles: readonly Candle[];
}

export interface ChartingSignal extends CacheInfo {
  /** The BTC ruling of the last 15 minutes; PENDING when there is none (no live price, or none yet). */
  readonly verdict: Ruling | "PENDING";
  /** Calibrated confidence in percent; 0 when PENDING. */
  readonly confidence: number;
  /** UNKNOWN before the first regime detection and while the last one is over 2 h old (the price has stopped; /v1/regime/current keeps it with its detected_at). */
  readonly regime: Regime | "UNKNOWN";
  readonly dark_pool: number;
  /** BTC 1H RSI(14); 0 if unavailable (no bar in the last 2 hours). */
  readonly rsi: number;
  /** BTC 1H EMA(200); 0 if unavailable (no bar in the last 2 hours). */
  readonly ema_200: number;
  /** Live spot (at most 5 minutes old; replay: the last hourly close, none inside a gap); 0 if unavailable. */
  readonly btc_price: number;
  readonly ghost_status: "WAITING" | "READY" | "IN_POSITION";
  readonly timestamp: number;
}

export interface SignalWeights extends CacheInfo {
  readonly regime: string;
  readonly weights: readonly {
    readonly signal_key: string;
    readonly regime: string;
    readonly multiplier: number;
    readonly accuracy: number;
    readonly data_points: number;
    readonly last_updated: string;
  }[];
  readonly avg_accuracy: number;
  readonly window_size: number;
  readonly last_updated: string;
}

export interface MacroCorrelation extends CacheInfo {
  readonly signals: readonly {
    readonly key: string;
    readonly display_name: string;
    readonly value: number | null;
    readonly change_24h_pct: number | null;
    readonly correlation_30d: number | null;
    readonly status: string;
    readonly last_updated: string | null;
  }[];
  readonly risk_off_score: number;
  readonly fed_hawkishness: number;
  readonly assessment: "RISK_ON" | "NEUTRAL" | "RISK_OFF";
  readonly alerts: readonly MacroAlert[];
  readonly timestamp: string;
}

export interface MacroAlert {
  readonly alert: "RISK_OFF" | "FED_HAWKISH";
  readonly risk_off_score: number;
  readonly fed_hawkishness: number;
  readonly key_driver: string;
  readonly message: string;
}

/** Ghost Trader results grouped by the regime in force at entry (win_rate 0..100). */
export interface RegimeStatsItem {
  readonly regime: Regime;
  readonly trades: number;
  readonly wins: number;
  readonly losses: number;
  readonly win_rate: number;
  readonly avg_pnl_pct: number;
  readonly avg_hold_hours: number;
  readonly total_pnl_usd: number;
}

export interface RegimeStats extends CacheInfo {
  readonly regimes: readonly RegimeStatsItem[];
  readonly best_regime: Regime | null;
  readonly worst_regime: Regime | null;
  readonly total_trades: number;
  readonly overall_win_rate: number;
  readonly since: string;
  readonly generated_at: string;
}

/** Directional accuracy of one BTC council agent over closed Ghost trades (accuracy_pct 0..100). */
export interface AgentAccuracy {
  readonly agent_name: string;
  readonly correct_calls: number;
  readonly total_calls: number;
  readonly accuracy_pct: number;
  readonly last_updated: string | null;
}

export interface AgentPerformance extends CacheInfo {
  readonly asset: "BTC";
  readonly trades_analyzed: number;
  readonly agents: readonly AgentAccuracy[];
}

/** One confidence bin of a reliability table: calls whose confidence fell in [from, to). */
export interface ReliabilityBin {
  readonly from: number;
  readonly to: number;
  readonly count: number;
  readonly mean_confidence: number | null;
  readonly hit_rate: number | null;
}

export interface RankIc {
  readonly hours: number;
  readonly ic: number | null;
  readonly t: number | null;
  readonly samples: number;
}

/**
 * The evaluation of one span: `from_2023` is held out (replay mode; rules were chosen on data up
 * to 2022-12-31); `trailing_365d` is the last 365 days the service recorded (live mode).
 */
export interface VerdictEvaluationSpan {
  readonly span: string;
  readonly from: string | null;
  readonly to: string | null;
  readonly hours: number;
  readonly unconditional: readonly { readonly hours: number; readonly mean_pct: number | null; readonly up_share: number | null }[];
  readonly rulings: readonly {
    readonly ruling: TaoRuling;
    readonly count: number;
    readonly share: number;
    readonly horizons: readonly {
      readonly hours: number;
      readonly graded: number;
      readonly mean_pct: number | null;
      /** Mean forward return minus the unconditional mean, percentage points. */
      readonly excess_pct: number | null;
      /** Moving-block bootstrap (168 h blocks) 90% interval of the excess. */
      readonly excess_ci90: readonly [number, number] | null;
    }[];
  }[];
  readonly rank_ic: readonly RankIc[];
  readonly rank_ic_by_year: readonly { readonly year: number; readonly horizons: readonly RankIc[] }[];
  readonly reliability: {
    readonly horizon_hours: number;
    readonly calls: number;
    readonly hit_rate: number | null;
    readonly bins: readonly ReliabilityBin[];
    /** Fifths of the calls by confidence rank; equal confidences are never split, so up to five. */
    readonly quintiles: readonly ReliabilityBin[];
    /** Mean over the quintiles of |mean confidence − realised hit rate|. */
    readonly quintile_mean_abs_gap: number | null;
    readonly brier: number | null;
    /** Always forecasting the window's raw up-share known at the time. */
    readonly brier_base_rate: number | null;
    /** Always forecasting the span's own up-share (hindsight). */
    readonly brier_hindsight_base_rate: number | null;
    /** The quintile gap a perfectly calibrated forecaster would show on these calls (median, 95th percentile). */
    readonly quintile_gap_if_calibrated: { readonly median: number; readonly p95: number } | null;
  };
}

/** The calibration map in force at `evaluated_at` (refitted at 00:00 UTC; the evaluation runs every 6 market hours): score -> probability of an up-move. */
export interface CalibrationMap {
  readonly kind: "isotonic" | "base_rate" | "prior";
  readonly horizon_hours: number;
  readonly fitted_at: string;
  readonly outcomes: number;
  readonly window_days: number;
  readonly base_rate: number;
  readonly up_share: number | null;
  readonly steps: readonly { readonly max_score: number; readonly mean_score: number; readonly p_up: number; readonly count: number }[];
}

/** GET /v1/evaluation/verdicts?asset= (docs/evaluation.md). */
export interface VerdictEvaluation extends CacheInfo {
  readonly asset: Asset;
  readonly horizon_hours: number;
  readonly evaluated_at: string;
  readonly spans: readonly VerdictEvaluationSpan[];
  readonly calibration: CalibrationMap;
}

/** GET /v1/evaluation/regime (docs/evaluation.md). */
export interface RegimeEvaluation extends CacheInfo {
  readonly evaluated_at: string;
  readonly from: string | null;
  readonly to: string | null;
  readonly hours: number;
  readonly regimes: readonly {
    readonly regime: Regime;
    /** Hours the regime was published, including those whose next 24 h are not over yet. */
    readonly hours: number;
    /** Hours whose next 24 h are known: the means and the up share are over these. */
    readonly graded_hours: number;
    readonly mean_forward_return_pct: number | null;
    readonly up_share: number | null;
    /** Realised volatility of the next 24 h, annualised. */
    readonly mean_forward_vol_pct: number | null;
  }[];
  /** R² of log forward 24 h volatility on log trailing 24 h volatility. */
  readonly r2_trailing_vol: number | null;
  readonly r2_trailing_vol_plus_regime: number | null;
  readonly r2_added_by_regime: number | null;
  /** What regime levels add by chance (the regime sequence shifted circularly against the hours): r2_added_by_regime means something only above p95. */
  readonly r2_added_by_chance: { readonly median: number; readonly p95: number; readonly p_value: number; readonly shifts: number } | null;
  readonly returns_kruskal_wallis: { readonly h: number | null; readonly df: number; readonly p_value: number | null; readonly samples: number };
}

/** Events a webhook subscribes to (SPEC "Events"); `webhook.test` is sent only by the test route. */
export type WebhookEvent = "verdict.new" | "council.new" | "regime.change" | "ghost.signal" | "macro.alert";

/** `POST /v1/webhooks`: the secret is shown here only; store it at once. */
export interface WebhookCreated {
  readonly id: string;
  readonly url: string;
  readonly events: readonly WebhookEvent[];
  readonly secret: string;
  readonly is_active: boolean;
  readonly created_at: string;
}

export interface WebhookSubscription {
  readonly id: string;
  readonly url: string;
  readonly events: readonly WebhookEvent[];
  /** Never shown again after creation. */
  readonly secret: null;
  readonly is_active: boolean;
  /** Why `is_active` is false: paused by PATCH, 10 failures, 410 Gone, or the owning key deactivated. */
  readonly disabled_reason: "paused" | "consecutive_failures" | "gone" | "key_deactivated" | null;
  readonly created_at: string;
  readonly last_triggered_at: string | null;
  readonly failures_since_success: number;
}

export interface WebhookList {
  readonly webhooks: readonly WebhookSubscription[];
  readonly count: number;
}

export interface WebhookDeleted {
  readonly id: string;
  readonly deleted: true;
}

/** The old secret keeps verifying the Standard Webhooks signature (a second `v1,` entry) until `previous_secret_expires_at`; `X-SERVICE-Signature` uses the new secret at once. */
export interface WebhookSecretRotated {
  readonly id: string;
  readonly secret: string;
  readonly previous_secret_expires_at: string;
}

export interface WebhookTestResult {
  readonly delivered: number;
  readonly failed: number;
  readonly results: readonly {
    readonly webhook_id: string;
    readonly success: boolean;
    readonly status_code: number | null;
    readonly error: string | null;
    readonly duration_ms: number;
  }[];
}

export interface WebhookDeliveries {
  readonly webhook_id: string;
  readonly deliveries: readonly {
    readonly event: string;
    readonly delivery_id: string;
    readonly attempt: number;
    readonly status_code: number | null;
    readonly error: string | null;
    readonly duration_ms: number;
    readonly attempted_at: string;
    readonly next: "delivered" | "retry" | "exhausted" | "gone" | "cancelled";
  }[];
}

/** The calling key and today's quota (GET /v1/keys/current); never the key itself or its e-mail. */
export interface CurrentKey {
  readonly key_prefix: string;
  readonly tier: Tier;
  readonly name: string | null;
  readonly created_at: string;
  readonly daily_limit: number;
  /** Today's calls by this key and the keys it was rotated from, this one included. */
  readonly calls_today: number;
  readonly remaining_today: number;
  /** The next 00:00 UTC. */
  readonly resets_at: string;
  readonly per_minute_limit: number;
}

export interface KeyRevoked {
  readonly deactivated: true;
}

export interface Readiness {
  readonly status: "ok" | "unavailable";
  readonly checks: Readonly<Record<string, string>>;
  readonly timestamp: string;
}

export interface Message {
  readonly message: string;
}

// ---- Webhook event data (the OpenAPI document's `webhooks`; SPEC "Webhook events", DECISIONS 5) ----

export interface VerdictNewData {
  readonly ruling: Ruling;
  readonly composite_score: number;
  readonly confidence: number;
  readonly regime: Regime | "UNKNOWN";
}

export interface CouncilNewData {
  readonly asset: "BTC" | "TAO" | "SOL";
  readonly ruling: TaoRuling;
  readonly confidence: number;
  readonly consensus_level: "UNANIMOUS" | "STRONG" | "MODERATE" | "SPLIT";
  readonly agents_succeeded: number;
}

export interface RegimeChangeData {
  readonly from_regime: Regime;
  readonly to_regime: Regime;
  readonly confidence: number;
}

export interface GhostSignalData {
  readonly asset: Asset;
  readonly action: "ENTRY" | "TP1" | "EXIT";
  readonly trade_id: string;
  readonly price: number;
  readonly size: number;
  readonly mode: "A" | "B" | "C";
  readonly reason: string;
  /** null on ENTRY. */
  readonly pnl_usd: number | null;
  readonly is_paper: boolean;
}

export interface MacroAlertData {
  readonly alert: "RISK_OFF" | "FED_HAWKISH";
  readonly risk_off_score: number;
  readonly fed_hawkishness: number;
  readonly key_driver: string;
  readonly message: string;
}

export interface WebhookTestData {
  readonly message: string;
  readonly webhook_id: string;
}

/** Each event's `data`, by event type. */
export interface WebhookEventData {
  readonly "verdict.new": VerdictNewData;
  readonly "council.new": CouncilNewData;
  readonly "regime.change": RegimeChangeData;
  readonly "ghost.signal": GhostSignalData;
  readonly "macro.alert": MacroAlertData;
  readonly "webhook.test": WebhookTestData;
}
