import type { ApiKeyRepository } from "./ports/api-keys.js";
import type { CounterRepository } from "./ports/counters.js";
import type { SlidingWindowRepository } from "./ports/sliding-windows.js";
import type { NewsletterRepository } from "./ports/newsletter.js";
import type { ActorStateStore } from "./ports/actor-state.js";
import type { OutboxStore } from "./ports/outbox.js";
import type { SignalHistoryRepository } from "./ports/signal-history.js";
import type { RegimeHistoryRepository } from "./ports/regime-history.js";
import type { GhostLedgerRepository } from "./ports/ghost-ledger.js";
import type { SignalWeightRepository } from "./ports/signal-weights.js";
import type { WebhookRepository } from "./ports/webhooks.js";
import type { VerdictPruning, VerdictRepository } from "./ports/verdicts.js";
import type { CouncilSessionRepository } from "./ports/council-sessions.js";
import type { LiveObservationLog } from "./ports/live-observations.js";
import type { EvidenceRepository } from "./ports/evidence.js";
import type { CalibrationHistoryRepository } from "./ports/calibration-history.js";
import type { ReplayClockRepository } from "./ports/replay-clock.js";
import type { SharedResponseCache } from "./ports/response-cache.js";
import type { ProviderHoldRepository } from "./ports/provider-holds.js";

/**
 * Every repository the service persists through, on one backend. Capabilities add their
 * repositories here; code depends on the ports, never on an adapter.
 */
export interface Store {
  readonly kind: "sqlite" | "mongodb";
  readonly apiKeys: ApiKeyRepository;
  readonly counters: CounterRepository;
  readonly slidingWindows: SlidingWindowRepository;
  readonly newsletter: NewsletterRepository;
  /** Actor state, reminders and the outbox the in-process actor host commits turns into. */
  readonly actorState: ActorStateStore;
  readonly actorOutbox: OutboxStore;
  /** Signal readings the recorder wrote, served by GET /v1/signals/history. */
  readonly signalHistory: SignalHistoryRepository;
  /** Hourly regime evaluations written by the RegimeActor, served by the regime routes. */
  readonly regimeHistory: RegimeHistoryRepository;
  /** Ghost Traders: closed trades, latest status per asset, track-record sprints. */
  readonly ghostLedger: GhostLedgerRepository;
  /** Adaptive signal multipliers written by the WeightsActor. */
  readonly signalWeights: SignalWeightRepository;
  /** Webhook subscriptions and their bounded delivery log (written by the subscription actors). */
  readonly webhooks: WebhookRepository;
  /** Judiciary verdicts of the four assets (kept 30 days of market time), written by the VerdictActors. */
  readonly verdicts: VerdictRepository & VerdictPruning;
  /** Council sessions of BTC, TAO and SOL with every vote, written by the CouncilActors (kept). */
  readonly councilSessions: CouncilSessionRepository;
  /** What the live pollers fetched, shared by every process's live feed (MARKET_FEED=live). */
  readonly liveObservations: LiveObservationLog;
  /** Calibration maps and evaluation reports written by the EvidenceActors (issue 16). */
  readonly evidence: EvidenceRepository;
  /** Live mode: the hourly rulings and closes the EvidenceActors calibrate on, kept for the calibration window. */
  readonly calibrationHistory: CalibrationHistoryRepository;
  /** The cluster's one replay market clock (replay mode): every replica anchors to it. */
  readonly replayClock: ReplayClockRepository;
  /** Response bodies every replica serves alike until they expire (the HTTP response cache). */
  readonly responseCache: SharedResponseCache;
  /** Waits an exchange asked of every replica (a ban on the IP they share), honoured by all. */
  readonly providerHolds: ProviderHoldRepository;
  /** Throws when the backend cannot be reached (readiness probe). */
  ping(): Promise<void>;
  close(): Promise<void>;
}
