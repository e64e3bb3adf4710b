import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from "vitest";
import { ENDPOINTS } from "../../../sdk/endpoints.js";
import type {
  BtcTrade,
  CouncilNewData,
  EthTrade,
  GhostSignalData,
  MacroAlertData,
  RegimeChangeData,
  SolTrade,
  TaoCurrentTrade,
  TaoStatusVerdict,
  TaoTrackRecordStats,
  TaoTrade,
  TrackRecords,
  TrackRecordStats,
  VerdictNewData,
  WebhookTestData,
} from "../../../sdk/types.js";
import { startService, type RunningService } from "../../support/service.js";

interface Schema {
  readonly $ref?: string;
  readonly properties?: Record<string, unknown>;
}
interface Operation {
  readonly tags?: string[];
  readonly "x-tier"?: string;
  readonly responses?: Record<string, { content?: Record<string, { schema?: Schema }> }>;
}
interface Doc {
  readonly paths: Record<string, Record<string, Operation>>;
  readonly components?: { schemas?: Record<string, Schema> };
}

let svc: RunningService;
let doc: Doc;

beforeAll(async () => {
  svc = await startService();
  doc = (await (await fetch(`${svc.url}/v1/openapi.json`)).json()) as Doc;
});

afterAll(async () => {
  await svc?.stop();
});

function successSchema(op: Operation): Schema | undefined {
  const ok = Object.entries(op.responses ?? {}).find(([status]) => status.startsWith("2"));
  const schema = ok?.[1].content?.["application/json"]?.schema;
  if (schema?.$ref) return doc.components?.schemas?.[schema.$ref.replace("#/components/schemas/", "")];
  return schema;
}

/**
 * The SDK is hand-typed from SPEC.md; this checks it against the document the service serves:
 * path, method, access and the fields of the success response.
 */
describe("SDK endpoints against /v1/openapi.json", () => {
  for (const [name, e] of Object.entries(ENDPOINTS)) {
    it(`${name}: ${e.method.toUpperCase()} ${e.path}`, () => {
      const op = doc.paths[e.path]?.[e.method];
      expect(op, `${e.method} ${e.path} is in the document`).toBeDefined();
      if (!op) return;
      expect(op["x-tier"] ?? "public").toBe(e.access);
      const properties = Object.keys(successSchema(op)?.properties ?? {}).sort();
      expect(properties).toEqual([...e.fields].sort());
    });
  }
});

/** Nested shapes the SDK types by hand, where a drift would not show in the top-level fields. */
const TRADE = ["id", "entryTime", "exitTime", "entryPrice", "exitPrice", "pnlUsd", "pnlPct", "tp1PnlUsd", "result", "mode"] as const;
const OWN_TRADE_FIELDS = {
  Btc: ["sizeBtc"],
  Eth: ["sizeEth"],
  Sol: ["sizeSol", "networkHealthAtEntry"],
  Tao: ["sizeTao", "liquidityAtEntry", "daysSinceHalving", "isPaper"],
} as const;
const TRACK_RECORD_STATS = ["totalTrades", "winRate", "totalPnl", "avgHoldMinutes", "bestTrade", "worstTrade"] as const;
const TAO_STATUS_VERDICT = ["ruling", "confidence", "agentVotes", "riskFlags", "createdAt"] as const;
const TAO_CURRENT_TRADE = ["entryPrice", "sizeTao", "pnlUsd", "pnlPct", "tp1Hit", "stopLoss", "tp1Target", "tp2Target", "hwm", "liquidityAtEntry", "taoBtcRatioAtEntry", "daysSinceHalving"] as const;

// The same lists hold the SDK's hand-written types (checked by the type checker, `npm run lint`).
type Fields<T extends readonly string[]> = T[number];
expectTypeOf<keyof BtcTrade>().toEqualTypeOf<Fields<typeof TRADE> | Fields<typeof OWN_TRADE_FIELDS.Btc>>();
expectTypeOf<keyof EthTrade>().toEqualTypeOf<Fields<typeof TRADE> | Fields<typeof OWN_TRADE_FIELDS.Eth>>();
expectTypeOf<keyof SolTrade>().toEqualTypeOf<Fields<typeof TRADE> | Fields<typeof OWN_TRADE_FIELDS.Sol>>();
expectTypeOf<keyof TaoTrade>().toEqualTypeOf<Fields<typeof TRADE> | Fields<typeof OWN_TRADE_FIELDS.Tao>>();
expectTypeOf<keyof TrackRecordStats>().toEqualTypeOf<Fields<typeof TRACK_RECORD_STATS>>();
expectTypeOf<keyof TaoTrackRecordStats>().toEqualTypeOf<Fields<typeof TRACK_RECORD_STATS> | "validatedPaperTrades" | "paperValidationTarget">();
expectTypeOf<keyof TaoStatusVerdict>().toEqualTypeOf<Fields<typeof TAO_STATUS_VERDICT>>();
expectTypeOf<keyof TaoCurrentTrade>().toEqualTypeOf<Fields<typeof TAO_CURRENT_TRADE>>();
expectTypeOf<TrackRecords["TAO"]["trades"][number]>().toEqualTypeOf<TaoTrade>();
expectTypeOf<TrackRecords["SOL"]["trades"][number]>().toEqualTypeOf<SolTrade>();

// Webhook event data, as the document's `webhooks` references them.
const EVENT_DATA = {
  VerdictNewData: ["ruling", "composite_score", "confidence", "regime"],
  CouncilNewData: ["asset", "ruling", "confidence", "consensus_level", "agents_succeeded"],
  RegimeChangeData: ["from_regime", "to_regime", "confidence"],
  GhostSignalData: ["asset", "action", "trade_id", "price", "size", "mode", "reason", "pnl_usd", "is_paper"],
  MacroAlertData: ["alert", "risk_off_score", "fed_hawkishness", "key_driver", "message"],
  WebhookTestData: ["message", "webhook_id"],
} as const;
expectTypeOf<keyof VerdictNewData>().toEqualTypeOf<Fields<typeof EVENT_DATA.VerdictNewData>>();
expectTypeOf<keyof CouncilNewData>().toEqualTypeOf<Fields<typeof EVENT_DATA.CouncilNewData>>();
expectTypeOf<keyof RegimeChangeData>().toEqualTypeOf<Fields<typeof EVENT_DATA.RegimeChangeData>>();
expectTypeOf<keyof GhostSignalData>().toEqualTypeOf<Fields<typeof EVENT_DATA.GhostSignalData>>();
expectTypeOf<keyof MacroAlertData>().toEqualTypeOf<Fields<typeof EVENT_DATA.MacroAlertData>>();
expectTypeOf<keyof WebhookTestData>().toEqualTypeOf<Fields<typeof EVENT_DATA.WebhookTestData>>();

const NESTED: readonly (readonly [string, readonly string[]])[] = [
  ...Object.entries(EVENT_DATA),
  ["ConfidenceBasis", ["kind", "horizon_hours", "fitted_at", "note"]],
  ["CalibrationMap", ["kind", "horizon_hours", "fitted_at", "outcomes", "window_days", "base_rate", "up_share", "steps"]],
  // sdk/types.ts: Trade and each asset's own trade, TAO's record stats, TAO status's nested shapes.
  ...(["Btc", "Eth", "Sol", "Tao"] as const).map((a) => [`${a}Trade`, [...TRADE, ...OWN_TRADE_FIELDS[a]]] as const),
  ["TrackRecordStats", TRACK_RECORD_STATS],
  ["TaoTrackRecordStats", [...TRACK_RECORD_STATS, "validatedPaperTrades", "paperValidationTarget"]],
  ["TaoStatusVerdict", TAO_STATUS_VERDICT],
  ["TaoCurrentTrade", TAO_CURRENT_TRADE],
];

describe("SDK nested types against /v1/openapi.json components", () => {
  for (const [component, fields] of NESTED) {
    it(component, () => {
      expect(Object.keys(doc.components?.schemas?.[component]?.properties ?? {}).sort()).toEqual([...fields].sort());
    });
  }

  it("VerdictEvaluation spans: reliability and per-ruling rows", () => {
    const spans = doc.components?.schemas?.["VerdictEvaluation"]?.properties?.["spans"] as { items?: Schema } | undefined;
    const span = spans?.items?.$ref ? doc.components?.schemas?.[spans.items.$ref.replace("#/components/schemas/", "")] : spans?.items;
    const props = span?.properties ?? {};
    expect(Object.keys(props).sort()).toEqual(["from", "hours", "rank_ic", "rank_ic_by_year", "reliability", "rulings", "span", "to", "unconditional"]);
    const reliability = props["reliability"] as Schema | undefined;
    expect(Object.keys(reliability?.properties ?? {}).sort()).toEqual(
      ["bins", "brier", "brier_base_rate", "brier_hindsight_base_rate", "calls", "hit_rate", "horizon_hours", "quintile_gap_if_calibrated", "quintile_mean_abs_gap", "quintiles"],
    );
  });
});

