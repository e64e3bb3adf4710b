import type { Config } from "../config/env.js";
import type { Logger } from "../logging/logger.js";
import type { NewsletterRepository } from "../store/ports/newsletter.js";
import { createSecretSealer } from "../webhook-delivery/secret-sealer.js";
import { createBlindIndex } from "../privacy/blind-index.js";
import { PERSONAL_DATA_USAGE, sealedNewsletter } from "../privacy/sealed-newsletter.js";
import { resealSubscribers } from "../privacy/reseal-subscribers.js";
import { countPersonalDataUnsealFailure } from "../observability/privacy-metrics.js";

export interface NewsletterStore {
  /** What the application reads and writes: addresses and names as given. */
  readonly repo: NewsletterRepository;
  /** At start, before the welcome sweep: moves every row under the first key and says how many rows each key holds. */
  reseal(): Promise<void>;
  /** How a mailbox's daily welcome counter is named: its keyed blind index when sealing (undefined: the service's default). */
  readonly mailboxTag?: (mailbox: string) => string;
}

/**
 * The newsletter repository the service and the CLI use: sealed when PERSONAL_DATA_KEYS is set
 * (docs/security.md), the store's own otherwise. The one place that choice is made, so the CLI's
 * `newsletter remove` finds what the service stored.
 */
export function newsletterStore(store: NewsletterRepository, config: Pick<Config, "PERSONAL_DATA_KEYS">, logger: Logger): NewsletterStore {
  const [first, ...rest] = config.PERSONAL_DATA_KEYS ?? [];
  if (first === undefined) {
    return {
      repo: store,
      async reseal() {
        const subscribers = (await store.listAll()).length;
        // A warning once there is something to protect; before that, a hint.
        logger[subscribers > 0 ? "warn" : "info"]({ subscribers }, "newsletter addresses are stored as given: set PERSONAL_DATA_KEYS to seal them at rest");
      },
    };
  }
  const sealer = createSecretSealer([first, ...rest], PERSONAL_DATA_USAGE);
  const index = createBlindIndex([first, ...rest]);
  // The row's key is a blind index (or, before sealing, the address): logged only when it is an index.
  const onFailure = (key: string, err: unknown) => {
    countPersonalDataUnsealFailure(err);
    logger.error({ subscriber: index.keyIdOf(key) === null ? "(stored as given)" : key, err: err instanceof Error ? err.message : String(err) }, "subscriber's personal data did not open: no welcome is sent to it");
  };
  return {
    repo: sealedNewsletter(store, sealer, index, onFailure),
    mailboxTag: (mailbox) => index.of(mailbox),
    async reseal() {
      const report = await resealSubscribers(store, sealer, index, onFailure);
      logger.info(
        { sealing_key: sealer.sealingKeyId, subscribers: report.subscribers, sealed_with: report.sealedWith, sealed_again: report.sealedAgain, unreadable: report.unreadable },
        "newsletter personal data sealed at rest",
      );
    },
  };
}
