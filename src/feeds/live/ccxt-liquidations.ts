import { z } from "zod";
import type { SignalReading } from "../../domain/signals/reading.js";
import type { Clock } from "../../runtime/clocks/clock.js";
import { ccxtProviderError } from "./ccxt-error.js";
import { ProviderError } from "./provider-error.js";
import type { ReadingProvider } from "./reading-provider.js";

/** The slice of a ccxt Exchange (gate) this adapter uses. */
export interface LiquidationsExchange {
  loadMarkets(): Promise<unknown>;
  market(symbol: string): unknown;
  fetchLiquidations(symbol: string, since?: number, limit?: number, params?: Record<string, unknown>): Promise<unknown>;
}

/**
 * ccxt gate options for this adapter: load the USDT-settled perpetuals only, instead of the spot,
 * delivery, option and BTC-settled catalogues it never reads.
 */
export const GATE_LIQUIDATION_OPTIONS = {
  fetchMarkets: { types: ["swap"] },
  swap: { fetchMarkets: { settlementCurrencies: ["usdt"] } },
};

const SYMBOL = "BTC/USDT:USDT";
const CONTRACT = "BTC_USDT";
const HOUR = 3_600_000;
/** The last closed hour plus the 23 before it: the cascade-risk baseline. */
const BASELINE_HOURS = 24;
/** Gate's list maximum; a full page may have cut the window short, so the window is split. */
const PAGE_LIMIT = 1000;
/** Rows of the last seconds of an hour may be published just after it closes. */
const SETTLE_MS = 60_000;

const decimal = z
  .string()
  .regex(/^\d+(?:\.\d+)?$/)
  .transform(Number);

/**
 * Gate's documented GET /futures/usdt/liq_orders row, as ccxt keeps it in `info`: `size` is the
 * liquidated position (> 0 long, < 0 short); `order_size`, the liquidation order closing it, has
 * the opposite sign; `fill_price` is the order's average taker price, `order_price` its limit.
 */
const gateRowSchema = z
  .object({
    contract: z.literal(CONTRACT),
    size: z.number().finite().refine((v) => v !== 0, "a liquidation of an empty position"),
    order_size: z.number().finite().optional(),
    order_price: decimal.refine((v) => v > 0, "order_price must be > 0"),
    fill_price: decimal,
  })
  .refine((r) => r.order_size === undefined || r.order_size * r.size <= 0, "liquidation order on the position's own side");

/** ccxt's unified Liquidation, with Gate's row kept as it came. */
const liquidationsSchema = z.array(
  z.object({
    symbol: z.literal(SYMBOL),
    timestamp: z.number().int(),
    info: gateRowSchema,
  }),
);

/**
 * ccxt's market for the contract; `contractSize` is Gate's quanto multiplier (BTC per contract).
 * ccxt's own liquidation amounts are not used: they net `left` against `size`, whose sign
 * convention Gate does not document, and gate's parser leaves `contractSize` out of the result.
 */
const marketSchema = z.object({
  id: z.literal(CONTRACT),
  linear: z.literal(true),
  contractSize: z.number().positive(),
});

type Liquidation = z.infer<typeof liquidationsSchema>[number];

/** Liquidated notional of one window, in USD (USDT taken as USD), by the side of the position. */
interface SideTotals {
  readonly longUsd: number;
  readonly shortUsd: number;
}

/**
 * The whole position is counted: what the takers did not fill (`left`) was liquidated too, and
 * with no taker fill there is no average fill price, so the order's own price values it.
 */
function notionalUsd(l: Liquidation, contractSize: number): number {
  const price = l.info.fill_price > 0 ? l.info.fill_price : l.info.order_price;
  return Math.abs(l.info.size) * contractSize * price;
}

function sumBySide(rows: readonly Liquidation[], contractSize: number): SideTotals {
  let longUsd = 0;
  let shortUsd = 0;
  for (const r of rows) {
    if (r.info.size > 0) longUsd += notionalUsd(r, contractSize);
    else shortUsd += notionalUsd(r, contractSize);
  }
  return { longUsd, shortUsd };
}

/**
 * LIQ_DIRECTIONAL_BIAS and LIQ_CASCADE_RISK from Gate's public BTC_USDT perpetual liquidations
 * through ccxt `fetchLiquidations`, over closed UTC hours:
 * - bias = (long − short liquidated USD) / (long + short) of the last closed hour, in [−1, 1];
 *   positive = longs were force-sold. 0 when nothing was liquidated.
 * - cascade risk = last closed hour's liquidated USD / hourly mean of the 24 closed hours ending
 *   with it, in [0, 24] (1 = an ordinary hour). 0 when nothing was liquidated in those 24 hours.
 */
export class CcxtLiquidationsProvider implements ReadingProvider {
  /**
   * Totals of closed hours by start time. Gate answers at most one hour per request, so the
   * 24-hour baseline costs 24 requests; a closed hour does not change, so each is fetched once
   * rather than at every 5-minute poll.
   */
  private readonly hours = new Map<number, SideTotals>();

  constructor(
    readonly id: string,
    private readonly exchange: LiquidationsExchange,
    private readonly clock: Clock,
  ) {}

  async poll(): Promise<readonly SignalReading[]> {
    const end = Math.floor((this.clock.now() - SETTLE_MS) / HOUR) * HOUR;
    const first = end - BASELINE_HOURS * HOUR;
    for (const start of this.hours.keys()) if (start < first) this.hours.delete(start);
    const contractSize = await this.contractSize();
    const day: SideTotals[] = [];
    // Newest first and one at a time, so a failure midway keeps what was fetched for the retry.
    for (let start = end - HOUR; start >= first; start -= HOUR) {
      const cached = this.hours.get(start);
      const totals = cached ?? (await this.windowTotals(start, start + HOUR, contractSize));
      if (!cached) this.hours.set(start, totals);
      day.push(totals);
    }
    const [last] = day;
    if (!last) return [];
    const lastUsd = last.longUsd + last.shortUsd;
    const dayUsd = day.reduce((sum, h) => sum + h.longUsd + h.shortUsd, 0);
    const bias = lastUsd > 0 ? (last.longUsd - last.shortUsd) / lastUsd : 0;
    const risk = dayUsd > 0 ? lastUsd / (dayUsd / BASELINE_HOURS) : 0;
    return [
      { key: "LIQ_DIRECTIONAL_BIAS", value: bias, observedAt: end, source: this.id },
      { key: "LIQ_CASCADE_RISK", value: risk, observedAt: end, source: this.id },
    ];
  }

  private async contractSize(): Promise<number> {
    let market: unknown;
    try {
      await this.exchange.loadMarkets();
      market = this.exchange.market(SYMBOL);
    } catch (err) {
      throw ccxtProviderError(this.id, err);
    }
    const parsed = marketSchema.safeParse(market);
    if (!parsed.success) throw new ProviderError(this.id, "malformed", `${CONTRACT} contract not in ccxt's market shape`);
    return parsed.data.contractSize;
  }

  /** Liquidations in [from, to) (ms); a window that fills a page is split in halves. */
  private async windowTotals(from: number, to: number, contractSize: number): Promise<SideTotals> {
    let raw: unknown;
    try {
      // Gate takes `from`/`to` in seconds; ccxt 4.5 forwards `since`/`until` in ms unchanged, so
      // they go as exchange params instead.
      raw = await this.exchange.fetchLiquidations(SYMBOL, undefined, PAGE_LIMIT, { from: from / 1000, to: to / 1000 });
    } catch (err) {
      throw ccxtProviderError(this.id, err);
    }
    const parsed = liquidationsSchema.safeParse(raw);
    if (!parsed.success) throw new ProviderError(this.id, "malformed", "liquidations not in Gate's documented shape");
    if (parsed.data.length >= PAGE_LIMIT) {
      if (to - from <= 1000) throw new ProviderError(this.id, "malformed", `a full page of liquidations within one second at ${from}`);
      const mid = from + Math.floor((to - from) / 2000) * 1000;
      const a = await this.windowTotals(from, mid, contractSize);
      const b = await this.windowTotals(mid, to, contractSize);
      return { longUsd: a.longUsd + b.longUsd, shortUsd: a.shortUsd + b.shortUsd };
    }
    // Gate's bounds may be inclusive at both ends; half-open windows count each row once.
    return sumBySide(
      parsed.data.filter((l) => l.timestamp >= from && l.timestamp < to),
      contractSize,
    );
  }
}
