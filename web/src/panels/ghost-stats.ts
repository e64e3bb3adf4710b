import type { GhostStats } from "../../../sdk/types.js";
import { facts } from "../dom.js";
import { money, over, pct, when } from "../format.js";
import type { PanelDef } from "../panel.js";

// DECISIONS 2: Ghost stats are cached 300 s. A cached body says what is left of it; a fresh one
// may carry no cache fields (SPEC lists only its data), and then the documented TTL holds.
const GHOST_STATS_TTL_S = 300;

export const ghostStatsPanel: PanelDef<GhostStats> = {
  id: "ghost-stats",
  title: "Ghost Trader summary",
  access: "public",
  load: async (client) => {
    const data = await client.ghostStats();
    return { data, ttlSeconds: data.cache_ttl_seconds ?? GHOST_STATS_TTL_S };
  },
  render: (body, s) => {
    body.append(
      facts([
        ["Validated trades", String(s.validated_trades)],
        // `validated_trades` counts open positions too; the win rate is over closed trades only.
        // Every closed trade pays fees, so none nets exactly 0: a 0 rate with a 0 total means none closed.
        ["Win rate", s.win_rate === 0 && s.total_pnl === 0 ? "— (no closed trade)" : over(s.validated_trades, pct(s.win_rate))],
        ["Total P&L", money(s.total_pnl)],
        ["Since", when(s.since)],
        ["Sprint", String(s.sprint)],
        ["Ledger checks passing", String(s.tests_passing)],
      ]),
    );
  },
};
