export interface Subscriber {
  /**
   * What the row is found by: the address itself, or, with personal data sealed
   * (PERSONAL_DATA_KEYS, src/sealing/sealed-newsletter.ts), the address's keyed blind index.
   * Every method below that takes `email` takes this.
   */
  readonly key: string;
  /** Where the welcome goes: the address (sealed at rest when the key is an index). */
  readonly email: string;
  readonly name: string | null;
  readonly subscribedAt: string;
  readonly welcomeSentAt: string | null;
  readonly welcomeAttempts: number;
}

export interface NewsletterRepository {
  /**
   * Stores a new subscriber; false (and no change) when the address is already subscribed.
   * `address` is where the welcome goes when the row is found by something else (a blind index).
   */
  subscribe(email: string, name: string | null, at: string, address?: string): Promise<boolean>;
  /**
   * Counts one attempt; `sentAt` when it went out (the unsubscribe token is then forgotten, its
   * hash kept). `giveUpAt` (the attempt limit) records a
   * refusal retrying cannot mend (a 5xx): the count goes straight to it, so no later sweep,
   * restart or replica tries again.
   */
  recordWelcomeAttempt(email: string, sentAt: string | null, giveUpAt?: number): Promise<void>;
  /**
   * Takes, or renews, the right to send this address's welcome e-mail until `now + leaseMs`.
   * False when the welcome went out, `maxAttempts` attempts were made, or another claimant holds
   * a claim that has not expired, so replicas sweeping together send each one once, and no
   * number of sweeps or restarts makes more than `maxAttempts` attempts.
   */
  claimWelcome(email: string, claimant: string, now: number, leaseMs: number, maxAttempts: number): Promise<boolean>;
  /** Gives a claim up (this run is done with it), so another sweep or replica may try at once. */
  releaseWelcome(email: string, claimant: string): Promise<void>;
  /**
   * Subscribers whose welcome e-mail has not gone out yet, oldest sign-up first: those who signed
   * up at or after `since` (ISO), at most `limit` of them (default: all).
   */
  pendingWelcome(maxAttempts: number, page?: PendingPage): Promise<Subscriber[]>;
  get(email: string): Promise<Subscriber | null>;
  /** Forgets a subscriber (an unsubscribe, an erasure request); false when the address was not stored. */
  remove(email: string): Promise<boolean>;
  /**
   * The token of this address's unsubscribe link, for its welcome e-mail: `fresh` is stored when
   * the address has none yet, so every attempt at one welcome carries the same link (an attempt
   * that timed out after the server took the mail may still arrive). Null when the address is not
   * stored or its welcome went out: the token itself is kept only until then, its hash for good.
   */
  unsubscribeToken(email: string, fresh: { readonly token: string; readonly hash: string }): Promise<string | null>;
  /** Every subscriber, welcomed or not: for sealing the rows stored before at start. */
  listAll(): Promise<Subscriber[]>;
  /**
   * Moves a subscriber to another key, with its address and name written anew (sealed under
   * another key), keeping its welcome state and unsubscribe link; `to` may be `from` (the values
   * sealed anew under the same index). When `to` is another key that is taken already
   * (one address signed up under both keys during a key change) the row under `from` goes: one
   * address, one subscriber. Safe to repeat after a crash part-way.
   */
  rekey(from: string, to: string, address: string, name: string | null): Promise<void>;
  /** Forgets the subscriber whose unsubscribe link carries the token with this hash; false when none does. */
  removeByUnsubscribeHash(hash: string): Promise<boolean>;
}

/** Which pending welcomes a sweep reads. */
export interface PendingPage {
  readonly since?: string;
  readonly limit?: number;
}
