import { z } from "zod";
import type { Asset } from "../../domain/signals/signal-keys.js";
import { ccxtProviderError } from "./ccxt-error.js";
import { ProviderError } from "./provider-error.js";

/** The slice of a ccxt Exchange the liquidity probe uses. */
export interface OrderBookExchange {
  fetchOrderBook(symbol: string, limit?: number): Promise<unknown>;
}

/** ccxt's unified order book: `bids`/`asks` are [price, amount, ...] rows, best first. */
const levelSchema = z.array(z.number().finite()).min(2);
const orderBookSchema = z.object({ bids: z.array(levelSchema), asks: z.array(levelSchema) });

const SYMBOLS: Record<Asset, string> = { BTC: "BTC/USDT", ETH: "ETH/USDT", SOL: "SOL/USDT", TAO: "TAO/USDT" };
/** SPEC TAO gate 0 band: ±0.5 % of mid. */
export const DEPTH_BAND = 0.005;
/** Enough levels to cover ±0.5 % on a thin book; Binance accepts 5..5000. */
const BOOK_LIMIT = 100;
export const ORDER_BOOK_TIMEOUT_MS = 10_000;

/**
 * USD depth (price × amount, USDT taken as USD) of every bid and ask within ±0.5 % of the mid of
 * the best bid and ask. Null when one side is empty: no mid, so no depth to speak of.
 */
export function depthWithinBand(book: { bids: readonly (readonly number[])[]; asks: readonly (readonly number[])[] }, band = DEPTH_BAND): number | null {
  const bestBid = Math.max(...book.bids.map((l) => l[0] ?? 0));
  const bestAsk = Math.min(...book.asks.map((l) => l[0] ?? Infinity));
  if (book.bids.length === 0 || book.asks.length === 0 || !(bestBid > 0) || !Number.isFinite(bestAsk)) return null;
  const mid = (bestBid + bestAsk) / 2;
  const lo = mid * (1 - band);
  const hi = mid * (1 + band);
  let usd = 0;
  for (const [price = 0, amount = 0] of [...book.bids, ...book.asks]) if (price >= lo && price <= hi && amount > 0) usd += price * amount;
  return usd;
}

/** Order-book depth probe for the TAO liquidity gate (live mode), over ccxt `fetchOrderBook`. */
export class CcxtOrderBookDepth {
  constructor(
    readonly id: string,
    private readonly exchange: OrderBookExchange,
    private readonly timeoutMs = ORDER_BOOK_TIMEOUT_MS,
  ) {}

  /** Throws ProviderError on a timeout, a ccxt error or a book not in ccxt's shape. */
  async depthUsd(asset: Asset): Promise<number> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new ProviderError(this.id, "timeout", `order book not answered within ${this.timeoutMs} ms`)), this.timeoutMs);
    });
    let raw: unknown;
    try {
      raw = await Promise.race([this.exchange.fetchOrderBook(SYMBOLS[asset], BOOK_LIMIT), timeout]);
    } catch (err) {
      throw ccxtProviderError(this.id, err);
    } finally {
      clearTimeout(timer);
    }
    const parsed = orderBookSchema.safeParse(raw);
    if (!parsed.success) throw new ProviderError(this.id, "malformed", "order book not in ccxt's shape");
    const depth = depthWithinBand(parsed.data);
    if (depth === null) throw new ProviderError(this.id, "malformed", "order book has an empty side");
    return depth;
  }
}
