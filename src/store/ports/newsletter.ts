export interface Subscriber {
  readonly email: string;
  readonly name: string | null;
  readonly subscribedAt: string;
  readonly welcomeSentAt: string | null;
  readonly welcomeAttempts: number;
}

export interface NewsletterRepository {
  /** Stores a new subscriber; false (and no change) when the address is already subscribed. */
  subscribe(email: string, name: string | null, at: string): Promise<boolean>;
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
  /** Subscribers whose welcome e-mail has not gone out yet, for resending after a restart. */
  pendingWelcome(maxAttempts: number): Promise<Subscriber[]>;
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
  /** Forgets the subscriber whose unsubscribe link carries the token with this hash; false when none does. */
  removeByUnsubscribeHash(hash: string): Promise<boolean>;
}
