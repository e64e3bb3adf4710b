import { LineSeries, type UTCTimestamp } from "lightweight-charts";
import type { Asset, TrackRecord } from "../../../sdk/types.js";
import { chartIn, COLORS } from "../charts.js";
import { el, facts } from "../dom.js";
import { money, num, over, pct, toUnixSeconds } from "../format.js";
import type { PanelDef } from "../panel.js";

// DECISIONS 2: track records are cached 300 s. A cached body says what is left of it; a fresh
// one may carry no cache fields (SPEC lists only its data), and then the documented TTL holds.
const TRACK_RECORD_TTL_S = 300;

/** Cumulative P&L at each exit; equal exit seconds are nudged apart because the chart needs strictly rising times. */
export function equityPoints(record: TrackRecord): { time: UTCTimestamp; value: number }[] {
  const points: { time: UTCTimestamp; value: number }[] = [];
  let total = 0;
  let last = -Infinity;
  const trades = [...record.trades].sort((a, b) => Date.parse(a.exitTime) - Date.parse(b.exitTime));
  for (const t of trades) {
    total += t.pnlUsd;
    const time = Math.max(toUnixSeconds(t.exitTime), last + 1);
    last = time;
    points.push({ time: time as UTCTimestamp, value: Math.round(total * 100) / 100 });
  }
  return points;
}

export function trackRecordPanel(asset: Asset): PanelDef<TrackRecord> {
  return {
    id: `track-${asset.toLowerCase()}`,
    title: `${asset} track record`,
    access: "public",
    load: async (client) => {
      const data = await client.trackRecord(asset);
      return { data, ttlSeconds: data.cache_ttl_seconds ?? TRACK_RECORD_TTL_S };
    },
    render: (body, record) => {
      const s = record.stats;
      body.append(
        facts([
          ["Closed trades", String(s.totalTrades)],
          ["Win rate", over(s.totalTrades, pct(s.winRate))],
          ["Total P&L", money(s.totalPnl)],
          ["Best / worst", over(s.totalTrades, `${money(s.bestTrade)} / ${money(s.worstTrade)}`)],
          ["Average hold", over(s.totalTrades, `${num(s.avgHoldMinutes / 60, 1)} h`)],
        ]),
      );
      if (record.trades.length === 0) {
        body.append(el("p", { class: "muted" }, "No closed validated trades yet, so there is no equity curve to draw."));
        return;
      }
      const { chart, cleanup } = chartIn(body, `${asset} equity curve: cumulative paper P&L in USD over ${record.trades.length} trades`, 160);
      const series = chart.addSeries(LineSeries, { color: COLORS.line, lineWidth: 2 });
      series.setData(equityPoints(record));
      chart.timeScale().fitContent();
      return cleanup;
    },
  };
}
