import type { Regime } from "../domain/market/vocabulary.js";
import type { WeightRow } from "../domain/weights/update-weights.js";
import type { MultiplierSource, SignalWeightRepository } from "./ports/signal-weights.js";

/**
 * The stored signal weights as the Judiciary Engine reads them: synchronously (it scores dozens
 * of signals per run), from an in-memory copy. The copy is a read-through cache of the store:
 * `sync()`, called before each evaluation, compares the store's version and reloads the rows when
 * they changed, so every replica scores with the rows the WeightsActor last wrote, wherever that
 * actor ran (issue 17: only the writer's process used to see them).
 * A pair never written, or no regime, is 1.0 (SPEC: a multiplier without data is neutral).
 */
export class CachedMultipliers implements MultiplierSource {
  private rows = new Map<string, number>();
  private version: string | null = null;

  constructor(private readonly repo: SignalWeightRepository) {}

  async refresh(): Promise<void> {
    this.version = await this.repo.version();
    this.load(await this.repo.all());
  }

  /** One cheap version read; the rows only when the version moved. */
  async sync(): Promise<void> {
    const version = await this.repo.version();
    if (version === this.version) return;
    this.load(await this.repo.all());
    this.version = version;
  }

  load(rows: readonly WeightRow[]): void {
    this.rows = new Map(rows.map((r) => [`${r.regime}|${r.signal_key}`, r.multiplier]));
  }

  multiplierFor(key: string, regime: Regime | null): number {
    if (regime === null) return 1.0;
    return this.rows.get(`${regime}|${key}`) ?? 1.0;
  }
}

/**
 * One cache per store object, so the ghost capability (writer) and the judiciary (reader) of one
 * service share it. Module-level, but safe across replicas: every use syncs with the store first.
 */
const shared = new WeakMap<SignalWeightRepository, CachedMultipliers>();

export function multipliersFor(repo: SignalWeightRepository): CachedMultipliers {
  let m = shared.get(repo);
  if (m === undefined) {
    m = new CachedMultipliers(repo);
    shared.set(repo, m);
  }
  return m;
}
