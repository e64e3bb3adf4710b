import { CandlestickSeries, HistogramSeries, createSeriesMarkers, type SeriesMarker, type Time, type UTCTimestamp } from "lightweight-charts";
import type { Asset, Candles, RegimeHistory, TrackRecord } from "../../../sdk/types.js";
import { chartIn, COLORS } from "../charts.js";
import { assetPicker } from "../asset-picker.js";
import { el } from "../dom.js";
import { toUnixSeconds } from "../format.js";
import { describe, type PanelDef } from "../panel.js";
import type { KeySession } from "../key-session.js";

const HOUR_S = 3600;
// 500 hourly bars: three weeks of context, one request, well inside the 1..1000 limit.
const BAR_LIMIT = 500;

const REGIME_COLORS: Record<string, string> = {
  BULL_TRENDING: "rgba(63,185,80,0.18)",
  RISK_ON: "rgba(63,185,80,0.12)",
  ACCUMULATION: "rgba(88,166,255,0.14)",
  WHALE_ACCUMULATION: "rgba(88,166,255,0.22)",
  LOW_VOLATILITY: "rgba(139,148,158,0.16)",
  HIGH_VOLATILITY: "rgba(210,153,34,0.18)",
  DISTRIBUTION: "rgba(248,81,73,0.12)",
  BEAR_TRENDING: "rgba(248,81,73,0.2)",
};

interface ChartData {
  readonly asset: Asset;
  readonly candles: Candles;
  /** Null with a reason when the markers or bands could not be had; the chart still shows. */
  readonly trades: TrackRecord | string;
  readonly regimes: RegimeHistory | string;
}

/** Entry and exit markers, snapped to the hourly bar that contains them. */
export function tradeMarkers(record: TrackRecord, firstBar: number, lastBar: number): SeriesMarker<Time>[] {
  const markers: SeriesMarker<Time>[] = [];
  const snap = (iso: string) => Math.floor(toUnixSeconds(iso) / HOUR_S) * HOUR_S;
  for (const t of record.trades) {
    const entry = snap(t.entryTime);
    const exit = snap(t.exitTime);
    if (entry >= firstBar && entry <= lastBar) markers.push({ time: entry as UTCTimestamp, position: "belowBar", shape: "arrowUp", color: COLORS.line, text: `Entry ${t.mode}` });
    if (exit >= firstBar && exit <= lastBar) markers.push({ time: exit as UTCTimestamp, position: "aboveBar", shape: "arrowDown", color: t.result === "WIN" ? COLORS.up : COLORS.down, text: `Exit ${t.result}` });
  }
  return markers.sort((a, b) => (a.time as number) - (b.time as number));
}

export function priceChartPanel(session: KeySession): PanelDef<ChartData> {
  let asset: Asset = "BTC";
  return {
    id: "price-chart",
    title: "Price, regimes and Ghost Trader trades",
    access: "free",
    controls: (reload) =>
      assetPicker("chart-asset", asset, (picked) => {
        asset = picked;
        reload();
      }),
    load: async (client) => {
      const tier = session.tier;
      const wantsBands = asset === "BTC" && (tier === "basic" || tier === "pro");
      const [candles, trades, regimes] = await Promise.allSettled([
        client.candles({ asset, interval: "1h", limit: BAR_LIMIT }),
        client.trackRecord(asset),
        wantsBands ? client.regimeHistory({ per_page: 500 }) : Promise.reject(new Error(asset === "BTC" ? "Regime bands need a Basic key." : "Regime bands are detected for BTC only.")),
      ]);
      if (candles.status === "rejected") throw candles.reason;
      const why = (r: PromiseRejectedResult) => (r.reason instanceof Error && !("status" in r.reason) ? r.reason.message : describe(r.reason).text);
      return {
        data: {
          asset,
          candles: candles.value,
          trades: trades.status === "fulfilled" ? trades.value : `Trade markers unavailable: ${why(trades)}`,
          regimes: regimes.status === "fulfilled" ? regimes.value : why(regimes),
        },
        ttlSeconds: candles.value.cache_ttl_seconds,
      };
    },
    render: (body, d) => {
      const bars = d.candles.candles.map((c) => ({ time: toUnixSeconds(c.t) as UTCTimestamp, open: c.o, high: c.h, low: c.l, close: c.c }));
      if (bars.length === 0) {
        body.append(el("p", { class: "muted" }, `No ${d.asset} candles yet.`));
        return;
      }
      const { chart, cleanup } = chartIn(body, `${d.asset} hourly candles with Ghost Trader entries and exits`, 320);
      const first = bars[0]?.time ?? 0;
      const last = bars[bars.length - 1]?.time ?? 0;
      if (typeof d.regimes !== "string") {
        const bands = chart.addSeries(HistogramSeries, { priceScaleId: "bands", lastValueVisible: false, priceLineVisible: false });
        chart.priceScale("bands").applyOptions({ visible: false, scaleMargins: { top: 0, bottom: 0 } });
        bands.setData(regimeBands(d.regimes, bars.map((b) => b.time)));
      }
      const series = chart.addSeries(CandlestickSeries, { upColor: COLORS.up, downColor: COLORS.down, wickUpColor: COLORS.up, wickDownColor: COLORS.down, borderVisible: false });
      series.setData(bars);
      let markerCount = 0;
      if (typeof d.trades !== "string") {
        const markers = tradeMarkers(d.trades, first, last);
        markerCount = markers.length;
        createSeriesMarkers(series, markers);
      }
      chart.timeScale().fitContent();
      const notes: string[] = [];
      notes.push(typeof d.trades === "string" ? d.trades : `${markerCount} trade markers in view (↑ entry, ↓ exit).`);
      if (typeof d.regimes === "string") notes.push(d.regimes);
      body.append(el("p", { class: "muted", "data-testid": "chart-notes" }, notes.join(" ")));
      return cleanup;
    },
  };
}

/** One band bar per candle, coloured by the regime in force at that hour. */
function regimeBands(history: RegimeHistory, times: readonly UTCTimestamp[]): { time: UTCTimestamp; value: number; color: string }[] {
  const changes = [...history.regimes].map((r) => ({ at: toUnixSeconds(r.recorded_at), regime: r.regime })).sort((a, b) => a.at - b.at);
  const out: { time: UTCTimestamp; value: number; color: string }[] = [];
  let i = -1;
  for (const time of times) {
    while (i + 1 < changes.length && (changes[i + 1]?.at ?? Infinity) <= time) i++;
    const current = changes[i];
    if (current) out.push({ time, value: 1, color: REGIME_COLORS[current.regime] ?? "rgba(0,0,0,0)" });
  }
  return out;
}
