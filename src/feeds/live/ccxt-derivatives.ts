import { z } from "zod";
import type { SignalReading } from "../../domain/signals/reading.js";
import { ccxtProviderError } from "./ccxt-error.js";
import { ProviderError } from "./provider-error.js";
import type { ReadingProvider } from "./reading-provider.js";

/** The slice of a ccxt futures Exchange (binanceusdm) this adapter uses. */
export interface DerivativesExchange {
  fetchFundingRateHistory(symbol?: string, since?: number, limit?: number): Promise<unknown>;
  fetchOpenInterest(symbol: string): Promise<unknown>;
}

/** ccxt's unified FundingRateHistory item (settled rates, as in the replay file). */
const fundingSchema = z.array(z.object({ fundingRate: z.number().finite(), timestamp: z.number().int() })).min(1);
/** ccxt's unified OpenInterest; Binance reports the amount in contracts = BTC. */
const openInterestSchema = z.object({
  openInterestAmount: z.number().nonnegative(),
  timestamp: z.number().int(),
});

const SYMBOL = "BTC/USDT:USDT";

/** BTC_FUNDING_RATE (last settled, % per 8 h) and BTC_OPEN_INTEREST (BTC) from Binance USDT-M via ccxt. */
export class CcxtDerivativesProvider implements ReadingProvider {
  constructor(
    readonly id: string,
    private readonly exchange: DerivativesExchange,
  ) {}

  async poll(): Promise<readonly SignalReading[]> {
    let funding: unknown;
    let oi: unknown;
    try {
      [funding, oi] = await Promise.all([
        this.exchange.fetchFundingRateHistory(SYMBOL, undefined, 3),
        this.exchange.fetchOpenInterest(SYMBOL),
      ]);
    } catch (err) {
      throw ccxtProviderError(this.id, err);
    }
    const f = fundingSchema.safeParse(funding);
    const o = openInterestSchema.safeParse(oi);
    if (!f.success || !o.success) throw new ProviderError(this.id, "malformed", "funding or open interest not in ccxt's shape");
    const last = f.data.reduce((a, b) => (b.timestamp > a.timestamp ? b : a));
    return [
      { key: "BTC_FUNDING_RATE", value: last.fundingRate * 100, observedAt: last.timestamp, source: this.id },
      { key: "BTC_OPEN_INTEREST", value: o.data.openInterestAmount, observedAt: o.data.timestamp, source: this.id },
    ];
  }
}
