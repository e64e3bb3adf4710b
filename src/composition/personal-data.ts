import type { Config } from "../config/env.js";
import type { Logger } from "../logging/logger.js";
import type { Store } from "../store/store.js";
import { createSecretSealer, type SealKey } from "../sealing/secret-sealer.js";
import { createBlindIndex } from "../sealing/blind-index.js";
import { SUBSCRIBER_DATA_USAGE, sealedNewsletter } from "../sealing/sealed-newsletter.js";
import { resealSubscribers } from "../sealing/reseal-subscribers.js";
import { KEY_OWNER_USAGE, resealKeyOwners, sealedApiKeys } from "../sealing/sealed-api-keys.js";
import { countPersonalDataUnsealFailure } from "../observability/privacy-metrics.js";

export interface PersonalDataStore {
  /**
   * The store the service and the CLI read and write through: with PERSONAL_DATA_KEYS set, its
   * newsletter and API key repositories seal personal data on every write and open it on every
   * read; the store itself otherwise.
   */
  readonly store: Store;
  /** At start, before the welcome sweep: seals what is stored as given or under an older key, and logs what each key holds. */
  reseal(): Promise<void>;
  /**
   * What a personal value that names a counter (a mailbox's daily welcomes, a client address's
   * per-IP limits) is stored as: its keyed blind index when sealing; undefined: each counter's default.
   */
  readonly tag?: (value: string) => string;
}

/**
 * Personal data at rest (docs/security.md): the addresses and names the newsletter takes from
 * anyone, and the name and address a key was generated with. The one place the choice is made,
 * so the CLI (`keys list`, `newsletter remove`) reads what the service wrote.
 */
export function personalDataStore(raw: Store, config: Pick<Config, "PERSONAL_DATA_KEYS">, logger: Logger): PersonalDataStore {
  const [first, ...rest] = config.PERSONAL_DATA_KEYS ?? [];
  if (first === undefined) {
    return {
      store: raw,
      async reseal() {
        const subscribers = (await raw.newsletter.listAll()).length;
        const keys = (await raw.apiKeys.list()).filter((k) => k.email !== null || k.name !== null).length;
        // A warning once there is something to protect; before that, a hint.
        logger[subscribers + keys > 0 ? "warn" : "info"]({ subscribers, keys_with_owner: keys }, "personal data is stored as given: set PERSONAL_DATA_KEYS to seal it at rest");
      },
    };
  }
  const keys: readonly [SealKey, ...SealKey[]] = [first, ...rest];
  const subscriberSealer = createSecretSealer(keys, SUBSCRIBER_DATA_USAGE);
  const ownerSealer = createSecretSealer(keys, KEY_OWNER_USAGE);
  const index = createBlindIndex(keys);
  // Logged by the row's key when it is a blind index, the key's id: never an address or a name.
  const onSubscriberFailure = (key: string, err: unknown) => {
    countPersonalDataUnsealFailure(err);
    logger.error({ subscriber: index.keyIdOf(key) === null ? "(stored as given)" : key, err: err instanceof Error ? err.message : String(err) }, "subscriber's personal data did not open: no welcome is sent to it");
  };
  const onOwnerFailure = (keyId: string, err: unknown) => {
    countPersonalDataUnsealFailure(err);
    logger.error({ key_id: keyId, err: err instanceof Error ? err.message : String(err) }, "key owner's personal data did not open: read as null");
  };
  // The raw store's other repositories and methods, two of them replaced: a view whose prototype
  // is the raw store, so it must be passed on, never spread (a spread copies only the two).
  const store: Store = Object.create(raw, {
    newsletter: { value: sealedNewsletter(raw.newsletter, subscriberSealer, index, onSubscriberFailure), enumerable: true },
    apiKeys: { value: sealedApiKeys(raw.apiKeys, ownerSealer, onOwnerFailure), enumerable: true },
  }) as Store;
  return {
    store,
    tag: (value) => index.of(value),
    async reseal() {
      const subscribers = await resealSubscribers(raw.newsletter, subscriberSealer, index, onSubscriberFailure);
      const owners = await resealKeyOwners(raw.apiKeys, ownerSealer, onOwnerFailure);
      logger.info(
        {
          sealing_key: first.id,
          subscribers: subscribers.subscribers,
          subscribers_sealed_with: subscribers.sealedWith,
          subscribers_sealed_again: subscribers.sealedAgain,
          subscribers_unreadable: subscribers.unreadable,
          keys: owners.keys,
          key_owners_sealed_again: owners.sealedAgain,
          key_owners_unreadable: owners.unreadable,
        },
        "personal data sealed at rest",
      );
    },
  };
}
