import { z } from "zod";
import { hashRibbon, mvrvZScore, nupl } from "../../domain/signals/derivations.js";
import type { SignalReading } from "../../domain/signals/reading.js";
import type { Clock } from "../../runtime/clocks/clock.js";
import { getJson } from "./http-json.js";
import { ProviderError } from "./provider-error.js";
import type { ReadingProvider } from "./reading-provider.js";

export const COINMETRICS_URL = "https://community-api.coinmetrics.io";
const DAY = 86_400_000;
/** Full history fits in ~2 pages; the cap stops a paging loop from running away. */
const MAX_PAGES = 5;

const numeric = z.string().regex(/^-?\d+(\.\d+)?([eE][-+]?\d+)?$/).transform(Number).optional();

/** /v4/timeseries/asset-metrics: values arrive as strings; a metric may be absent on a row. */
const pageSchema = z.object({
  data: z.array(
    z.object({
      asset: z.literal("btc"),
      time: z.string().regex(/^\d{4}-\d{2}-\d{2}T/),
      CapMVRVCur: numeric,
      CapMrktCurUSD: numeric,
      HashRate: numeric,
    }),
  ),
  next_page_url: z.string().url().optional(),
});

interface Row {
  readonly day: number;
  readonly mvrv?: number;
  readonly cap?: number;
  readonly hash?: number;
}

/**
 * Where the history starts, as in the bundled file (btc_onchain_coinmetrics_daily): MVRV_ZSCORE
 * divides by the standard deviation of *all history to date*, so live asking from 2010 gave the
 * same day another z-score than replay.
 */
const HISTORY_START = "2013-01-01";

/**
 * MVRV_ZSCORE, NUPL and HASH_RIBBON from the Coin Metrics community API (CC BY-NC 4.0), with
 * the same formulas as the replay. The Z-score's stdev spans all history from HISTORY_START, so
 * that whole daily series is fetched (about two pages) on each daily poll.
 */
export class CoinMetricsProvider implements ReadingProvider {
  readonly id = "coinmetrics";

  constructor(
    private readonly clock: Clock,
    private readonly baseUrl = COINMETRICS_URL,
    private readonly timeoutMs = 20_000,
  ) {}

  async poll(): Promise<readonly SignalReading[]> {
    const rows = await this.fetchAll();
    const now = this.clock.now();
    // A day's value is final at the end of that UTC day, as in replay.
    const seen = (day: number) => Math.min(now, day + DAY);
    const out: SignalReading[] = [];
    const valuation = rows.filter((r) => r.mvrv !== undefined && r.cap !== undefined && (r.mvrv as number) > 0);
    const mvrv = Float64Array.from(valuation, (r) => r.mvrv as number);
    const z = mvrvZScore(Float64Array.from(valuation, (r) => r.cap as number), mvrv);
    const last = valuation.length - 1;
    const lastRow = valuation[last];
    if (lastRow) {
      out.push({ key: "NUPL", value: nupl(mvrv)[last] as number, observedAt: seen(lastRow.day), source: this.id });
      const zLast = z[last] as number;
      if (!Number.isNaN(zLast)) out.push({ key: "MVRV_ZSCORE", value: zLast, observedAt: seen(lastRow.day), source: this.id });
    }
    const hashRows = rows.filter((r) => r.hash !== undefined);
    const ribbon = hashRibbon(
      Float64Array.from(hashRows, (r) => r.day),
      Float64Array.from(hashRows, (r) => r.hash as number),
    );
    const lastHash = hashRows[hashRows.length - 1];
    const ribbonLast = ribbon[ribbon.length - 1];
    if (lastHash && ribbonLast !== undefined && !Number.isNaN(ribbonLast)) {
      out.push({ key: "HASH_RIBBON", value: ribbonLast, observedAt: seen(lastHash.day), source: this.id });
    }
    return out;
  }

  private async fetchAll(): Promise<Row[]> {
    let url: string | undefined =
      `${this.baseUrl}/v4/timeseries/asset-metrics?assets=btc&metrics=CapMVRVCur,CapMrktCurUSD,HashRate` +
      `&frequency=1d&start_time=${HISTORY_START}&page_size=10000`;
    const rows: Row[] = [];
    for (let page = 0; url !== undefined; page++) {
      if (page >= MAX_PAGES) throw new ProviderError(this.id, "malformed", `more than ${MAX_PAGES} pages`);
      const body: z.infer<typeof pageSchema> = await getJson(this.id, url, pageSchema, { timeoutMs: this.timeoutMs });
      for (const r of body.data) {
        rows.push({ day: Date.parse(r.time.slice(0, 10)), mvrv: r.CapMVRVCur, cap: r.CapMrktCurUSD, hash: r.HashRate });
      }
      url = body.next_page_url;
      // Follow the provider's paging only on its own host: a payload must not steer requests elsewhere.
      if (url !== undefined && !url.startsWith(`${this.baseUrl}/`)) {
        throw new ProviderError(this.id, "malformed", "next_page_url points outside the API");
      }
    }
    // Days before the start are left out even if the API sends them: the z-score's "all history"
    // must be the same history in both modes.
    const start = Date.parse(HISTORY_START);
    return rows.filter((r) => r.day >= start).sort((a, b) => a.day - b.day);
  }
}
