import type { Regime } from "../domain/market/vocabulary.js";
import type { WeightRow } from "../domain/weights/update-weights.js";
import type { SignalWeightRepository } from "../store/ports/signal-weights.js";
import type { MultiplierSource } from "../actors/verdict-actor.js";

/**
 * The stored signal weights as the Judiciary Engine reads them: synchronously (it scores dozens
 * of signals per run), from an in-memory copy the WeightsActor refreshes after each 6-hour cycle.
 * A pair never written, or no regime, is 1.0 (SPEC: a multiplier without data is neutral).
 */
export class CachedMultipliers implements MultiplierSource {
  private rows = new Map<string, number>();

  constructor(private readonly repo: SignalWeightRepository) {}

  async refresh(): Promise<void> {
    this.load(await this.repo.all());
  }

  load(rows: readonly WeightRow[]): void {
    this.rows = new Map(rows.map((r) => [`${r.regime}|${r.signal_key}`, r.multiplier]));
  }

  multiplierFor(key: string, regime: Regime | null): number {
    if (regime === null) return 1.0;
    return this.rows.get(`${regime}|${key}`) ?? 1.0;
  }
}

const shared = new WeakMap<SignalWeightRepository, CachedMultipliers>();

/** One cache per store, so the ghost capability (writer) and the judiciary (reader) share it. */
export function multipliersFor(repo: SignalWeightRepository): CachedMultipliers {
  let m = shared.get(repo);
  if (m === undefined) {
    m = new CachedMultipliers(repo);
    shared.set(repo, m);
  }
  return m;
}
