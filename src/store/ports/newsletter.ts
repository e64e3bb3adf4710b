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
  /** Subscribers whose welcome e-mail has not gone out yet, for resending after a restart. */
  pendingWelcome(maxAttempts: number): Promise<Subscriber[]>;
  get(email: string): Promise<Subscriber | null>;
}
