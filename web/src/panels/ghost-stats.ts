import type { GhostStats } from "../../../sdk/types.js";
import { facts } from "../dom.js";
import { money, over, pct, when } from "../format.js";
import type { PanelDef } from "../panel.js";

// SPEC: Ghost stats are cached 300 s and carry no cache fields, so the TTL is the documented one.
const GHOST_STATS_TTL_S = 300;

export const ghostStatsPanel: PanelDef<GhostStats> = {
  id: "ghost-stats",
  title: "Ghost Trader summary",
  access: "public",
  load: async (client) => ({ data: await client.ghostStats(), ttlSeconds: GHOST_STATS_TTL_S }),
  render: (body, s) => {
    body.append(
      facts([
        ["Validated trades", String(s.validated_trades)],
        ["Win rate", over(s.validated_trades, pct(s.win_rate))],
        ["Total P&L", money(s.total_pnl)],
        ["Since", when(s.since)],
        ["Sprint", String(s.sprint)],
        ["Ledger checks passing", String(s.tests_passing)],
      ]),
    );
  },
};
