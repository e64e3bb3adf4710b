import { FIGURE_REFRESH_MS, type NetworkFigure, type NetworkFigureKey } from "../../domain/signals/network-figures.js";

/**
 * A live provider of per-asset network or sector figures (Solana RPC, CoinGecko categories): the
 * ReadingProvider port for values outside the 27-signal catalogue. Same contract: fetch and
 * validate only; ResilientProvider adds retries and the circuit breaker.
 */
export interface FigureProvider {
  readonly id: string;
  /** The figures this provider delivers; their refresh intervals set its poll period. */
  readonly keys: readonly NetworkFigureKey[];
  poll(): Promise<readonly NetworkFigure[]>;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** As for signal providers: a twelfth of the shortest refresh among its figures, within 1 min..1 h. */
export function figurePollEvery(provider: FigureProvider): number {
  const shortest = Math.min(...provider.keys.map((k) => FIGURE_REFRESH_MS[k]));
  return Math.min(HOUR, Math.max(MINUTE, shortest / 12));
}
