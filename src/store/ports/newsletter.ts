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
  recordWelcomeAttempt(email: string, sentAt: string | null): Promise<void>;
  /**
   * Takes, or renews, the right to send this address's welcome e-mail until `now + leaseMs`.
   * False when the welcome went out or another claimant holds a claim that has not expired, so
   * replicas starting together (each resuming pending welcomes) send each one once.
   */
  claimWelcome(email: string, claimant: string, now: number, leaseMs: number): Promise<boolean>;
  /** Gives a claim up (attempts exhausted), so the next start may try at once. */
  releaseWelcome(email: string, claimant: string): Promise<void>;
  /** Subscribers whose welcome e-mail has not gone out yet, for resending after a restart. */
  pendingWelcome(maxAttempts: number): Promise<Subscriber[]>;
  get(email: string): Promise<Subscriber | null>;
}
