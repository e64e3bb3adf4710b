import type { Tier } from "./types.js";

export type Access = "public" | Tier;

export interface EndpointInfo {
  readonly method: "get" | "post" | "patch" | "delete";
  readonly path: string;
  readonly access: Access;
  /** Top-level fields of the 200 body, checked against /v1/openapi.json by the SDK tests. */
  readonly fields: readonly string[];
}

const cache = ["cached", "cache_ttl_seconds"] as const;
const health = ["status", "version", "environment", "timestamp"] as const;
const issuedKey = ["api_key", "key_prefix", "tier", "daily_limit", "name", "email", "created_at", "message"] as const;

/** Every endpoint the client calls, with the access rule of DECISIONS 3. */
export const ENDPOINTS = {
  health: { method: "get", path: "/v1/health", access: "public", fields: health },
  healthLive: { method: "get", path: "/v1/health/live", access: "public", fields: health },
  healthReady: { method: "get", path: "/v1/health/ready", access: "public", fields: ["status", "checks", "timestamp"] },
  rotateKey: { method: "post", path: "/v1/keys/rotate", access: "free", fields: issuedKey },
  currentKey: {
    method: "get",
    path: "/v1/keys/current",
    access: "free",
    fields: ["key_prefix", "tier", "name", "created_at", "daily_limit", "calls_today", "remaining_today", "resets_at", "per_minute_limit"],
  },
  revokeKey: { method: "delete", path: "/v1/keys/current", access: "free", fields: ["deactivated"] },
  subscribeNewsletter: { method: "post", path: "/v1/newsletter/subscribe", access: "public", fields: ["message"] },
  createWebhook: { method: "post", path: "/v1/webhooks", access: "basic", fields: ["id", "url", "events", "secret", "is_active", "created_at"] },
  webhooks: { method: "get", path: "/v1/webhooks", access: "basic", fields: ["webhooks", "count"] },
  deleteWebhook: { method: "delete", path: "/v1/webhooks/{id}", access: "basic", fields: ["id", "deleted"] },
  setWebhookActive: {
    method: "patch",
    path: "/v1/webhooks/{id}",
    access: "basic",
    fields: ["id", "url", "events", "secret", "is_active", "disabled_reason", "created_at", "last_triggered_at", "failures_since_success"],
  },
  testWebhooks: { method: "post", path: "/v1/webhooks/test", access: "basic", fields: ["delivered", "failed", "results"] },
  rotateWebhookSecret: { method: "post", path: "/v1/webhooks/{id}/rotate-secret", access: "basic", fields: ["id", "secret", "previous_secret_expires_at"] },
  webhookDeliveries: { method: "get", path: "/v1/webhooks/{id}/deliveries", access: "basic", fields: ["webhook_id", "deliveries"] },
  runTaoCouncil: { method: "post", path: "/v1/tao/council/run", access: "pro", fields: ["success", "verdict", "detail"] },
  generateKey: { method: "post", path: "/v1/keys/generate", access: "public", fields: issuedKey },
  verdict: {
    method: "get",
    path: "/v1/verdict/latest",
    access: "free",
    fields: ["ruling", "confidence", "confidence_basis", "score", "btc_price", "timestamp", "council_ruling", "council_confidence", "council_confidence_basis", "council_consensus", "council_explanation", "council_explanation_source", "council_mode", "agents", "agents_confidence_basis", "macro_context", ...cache],
  },
  regime: {
    method: "get",
    path: "/v1/regime/current",
    access: "free",
    fields: ["regime", "confidence", "btc_price", "detected_at", "strength", "sub_regime", "volatility_state", "chop_score", "breakout_imminent", "compatible_strategies", "incompatible_strategies", "transition_probabilities", "regime_age_hours", ...cache],
  },
  candles: { method: "get", path: "/v1/market/candles", access: "free", fields: ["asset", "interval", "candles", ...cache] },
  chartingSignal: {
    method: "get",
    path: "/v1/charting/signal",
    access: "free",
    fields: ["verdict", "confidence", "regime", "dark_pool", "rsi", "ema_200", "btc_price", "ghost_status", "timestamp", ...cache],
  },
  signals: {
    method: "get",
    path: "/v1/signals/latest",
    access: "basic",
    fields: ["signals", "total_signals", "live_count", "stale_count", "dead_count", "coverage_pct", "macro_calendar", "timestamp", ...cache],
  },
  regimeStats: {
    method: "get",
    path: "/v1/regime/stats",
    access: "free",
    fields: ["regimes", "best_regime", "worst_regime", "total_trades", "overall_win_rate", "since", "generated_at", ...cache],
  },
  agentPerformance: { method: "get", path: "/v1/agents/performance", access: "free", fields: ["asset", "trades_analyzed", "agents", ...cache] },
  regimeHistory: { method: "get", path: "/v1/regime/history", access: "basic", fields: ["regimes", "total", "page", "per_page", ...cache] },
  macroCorrelation: {
    method: "get",
    path: "/v1/macro/correlation",
    access: "basic",
    fields: ["signals", "risk_off_score", "fed_hawkishness", "assessment", "alerts", "timestamp", ...cache],
  },
  signalHistory: { method: "get", path: "/v1/signals/history", access: "pro", fields: ["items", "total", "page", "per_page", ...cache] },
  signalWeights: {
    method: "get",
    path: "/v1/signals/weights",
    access: "pro",
    fields: ["regime", "weights", "avg_accuracy", "window_size", "last_updated", ...cache],
  },
  council: {
    method: "get",
    path: "/v1/council/latest",
    access: "pro",
    fields: ["ruling", "confidence", "confidence_basis", "consensus", "score", "agents", "agents_confidence_basis", "agents_failed", "session_at", ...cache],
  },
  solCouncil: { method: "get", path: "/v1/sol/council", access: "pro", fields: ["verdict", "nextRefreshMinutes", ...cache] },
  taoCouncil: { method: "get", path: "/v1/tao/council", access: "pro", fields: ["success", "verdict", "detail", ...cache] },
  taoStatus: {
    method: "get",
    path: "/v1/tao/status",
    access: "public",
    fields: ["status", "currentTrade", "latestVerdict", "regime", "rsi1h", "ema200", "taoPrice", "networkHealth", "liquidityStatus", "liquidityDepthUsd", "paperTradesValidated", "paperMode", "generatedAt", "gates", ...cache],
  },
  btcTrackRecord: { method: "get", path: "/v1/btc/track-record", access: "public", fields: ["trades", "stats", ...cache] },
  ethTrackRecord: { method: "get", path: "/v1/eth/track-record", access: "public", fields: ["trades", "stats", ...cache] },
  solTrackRecord: { method: "get", path: "/v1/sol/track-record", access: "public", fields: ["trades", "stats", ...cache] },
  taoTrackRecord: { method: "get", path: "/v1/tao/track-record", access: "public", fields: ["trades", "stats", ...cache] },
  ghostStats: {
    method: "get",
    path: "/v1/ghost/stats",
    access: "public",
    fields: ["validated_trades", "since", "total_pnl", "win_rate", "sprint", "tests_passing", ...cache],
  },
  ghostPerformance: {
    method: "get",
    path: "/v1/ghost/performance",
    access: "public",
    fields: [
      "asset", "sprintSince", "from", "to", "days", "standingAside", "note", "trades", "wins", "losses", "winRatePct",
      "avgWinUsd", "avgLossUsd", "profitFactor", "expectancyUsd", "expectancyPct", "totalPnlUsd", "returnPct", "cagrPct",
      "maxDrawdown", "maxRelativeDrawdown", "sharpe", "sortino", "calmar", "exposurePct", "feesUsd", "bestDay", "worstDay", "maxConsecutiveLosses",
      "byEntryMode", "byExitReason", "byYear", "benchmarks", "costs", ...cache,
    ],
  },
  verdictEvaluation: {
    method: "get",
    path: "/v1/evaluation/verdicts",
    access: "basic",
    fields: ["asset", "horizon_hours", "evaluated_at", "spans", "calibration", ...cache],
  },
  regimeEvaluation: {
    method: "get",
    path: "/v1/evaluation/regime",
    access: "basic",
    fields: ["evaluated_at", "from", "to", "hours", "regimes", "r2_trailing_vol", "r2_trailing_vol_plus_regime", "r2_added_by_regime", "r2_added_by_chance", "returns_kruskal_wallis", ...cache],
  },
} as const satisfies Record<string, EndpointInfo>;

export type EndpointName = keyof typeof ENDPOINTS;
