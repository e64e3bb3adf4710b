/**
 * Waits a provider asked of the whole deployment: an exchange's ban (a 418 or 429 with
 * Retry-After) is on the IP that called, and the replicas of one deployment usually share it
 * (one host under `npm run start:dapr`, one NAT under docker compose). A hold heard by one
 * replica's poller is kept here, so every replica's calls to that provider wait it out;
 * otherwise the others go on calling through the ban, which is what makes Binance lengthen it.
 */
export interface ProviderHoldRepository {
  /** When the hold on `provider` ends (ms since epoch); 0 when none was ever recorded. */
  until(provider: string): Promise<number>;
  /** Moves the hold on `provider` to `until`, unless a later end is already recorded. */
  extend(provider: string, until: number): Promise<void>;
}
