import { byId } from "./dom.js";
import { KeySession } from "./key-session.js";
import { mountKeyBar } from "./key-bar.js";
import { PanelRunner, type PanelDef } from "./panel.js";
import { ghostStatsPanel } from "./panels/ghost-stats.js";
import { ghostPerformancePanel } from "./panels/ghost-performance.js";
import { evidencePanel } from "./panels/evidence.js";
import { trackRecordPanel } from "./panels/track-record.js";
import { taoGatesPanel } from "./panels/tao-gates.js";
import { verdictPanel } from "./panels/verdict.js";
import { regimePanel } from "./panels/regime.js";
import { priceChartPanel } from "./panels/price-chart.js";
import { macroCalendarPanel, signalsPanel } from "./panels/signals.js";
import { macroCorrelationPanel } from "./panels/macro-correlation.js";
import { signalWeightsPanel } from "./panels/signal-weights.js";
import { regimeStatsPanel } from "./panels/regime-stats.js";
import { agentPerformancePanel } from "./panels/agent-performance.js";
import { btcCouncilPanel, solCouncilPanel, taoCouncilPanel } from "./panels/councils.js";

// Same origin: the dashboard is served by the API it shows.
const BASE_URL = "";

const session = new KeySession();
mountKeyBar(session, BASE_URL);

function mount<T>(groupId: string, def: PanelDef<T>): void {
  new PanelRunner(def, byId<HTMLElement>(groupId), session, BASE_URL).start();
}

mount("group-market", verdictPanel);
mount("group-market", regimePanel);
mount("group-market", priceChartPanel(session));
mount("group-market", regimeStatsPanel);
mount("group-market", agentPerformancePanel);
mount("group-track", ghostStatsPanel);
for (const asset of ["BTC", "ETH", "SOL", "TAO"] as const) mount("group-track", trackRecordPanel(asset));
mount("group-track", ghostPerformancePanel());
mount("group-track", evidencePanel());
mount("group-track", taoGatesPanel);
mount("group-signals", signalsPanel);
mount("group-signals", macroCalendarPanel);
mount("group-signals", macroCorrelationPanel);
mount("group-signals", signalWeightsPanel());
mount("group-councils", btcCouncilPanel);
mount("group-councils", solCouncilPanel);
mount("group-councils", taoCouncilPanel);
