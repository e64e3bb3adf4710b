import type { Config } from "../config/env.js";
import type { Store } from "../store/store.js";
import type { Logger } from "../logging/logger.js";
import type { Clock } from "../runtime/clocks/clock.js";
import type { KeyVerifier } from "../application/key-verifier.js";
import type { UsageLimiter } from "../application/usage-limiter.js";
import type { NewsletterService } from "../application/newsletter.js";
import type { KeyIssuer } from "../application/key-issuer.js";
import type { KeyLifecycle } from "../application/key-lifecycle.js";
import type { TierLimitTable } from "../domain/access/tiers.js";
import type { MarketFeed } from "../feeds/market-feed.js";
import type { MarketClock } from "../runtime/clocks/market-clock.js";
import type { ReadinessCheck } from "./schemas/health.js";

/** What the HTTP layer is built from; capabilities add their services here. */
export interface AppDeps {
  readonly config: Config;
  readonly store: Store;
  readonly logger: Logger;
  /** Wall clock: callers, quotas and the health timestamp live in UTC wall time. */
  readonly wallClock: Clock;
  readonly keyVerifier: KeyVerifier;
  /** Counts keyed requests (per request or through quota leases, as the composition root chose). */
  readonly limiter: UsageLimiter;
  readonly newsletter: NewsletterService;
  readonly tierLimits: TierLimitTable;
  readonly keyIssuer: KeyIssuer;
  /** Rotations and deactivations, announced to the capabilities that keep per-key things. */
  readonly keyLifecycle: KeyLifecycle;
  /** Market data as of market time (replay: the bundled history; live: public APIs). */
  readonly feed: MarketFeed;
  /** Market time: what signals, verdicts, regimes and trades are stamped with. */
  readonly marketClock: MarketClock;
  /**
   * Readiness beyond the store (the composition root's start-up and the actor host's turns),
   * per named check. Absent: only the store is checked.
   */
  readonly readiness?: () => Readonly<Record<string, ReadinessCheck>>;
  /**
   * What a client's address is counted under by the per-IP limits. Absent: the address itself;
   * with PERSONAL_DATA_KEYS set, its keyed blind index, so the limit tables are no log of which
   * address called when (a sign-up's hit, next to its time, would name the subscriber's address).
   */
  readonly clientTag?: (client: string) => string;
}

export function tierLimitsFrom(config: Config): TierLimitTable {
  return {
    free: { dailyQuota: config.QUOTA_FREE_PER_DAY, perMinute: config.RATE_LIMIT_FREE_PER_MINUTE },
    basic: { dailyQuota: config.QUOTA_BASIC_PER_DAY, perMinute: config.RATE_LIMIT_BASIC_PER_MINUTE },
    pro: { dailyQuota: config.QUOTA_PRO_PER_DAY, perMinute: config.RATE_LIMIT_PRO_PER_MINUTE },
  };
}
