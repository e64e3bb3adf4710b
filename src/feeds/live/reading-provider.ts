import type { SignalReading } from "../../domain/signals/reading.js";

/**
 * The live-provider port: one public API (Deribit, alternative.me, DefiLlama, …) polled for the
 * signal readings it can deliver. Implementations only fetch and validate; timeouts, retries and
 * circuit breaking wrap them (ResilientProvider), so every adapter gets the same behaviour.
 */
export interface ReadingProvider {
  readonly id: string;
  poll(): Promise<readonly SignalReading[]>;
}
