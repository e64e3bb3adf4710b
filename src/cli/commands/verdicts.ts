import { parseArgs } from "node:util";
import { z } from "zod";
import { loadConfig } from "../../config/env.js";
import { ReplayMarketFeed } from "../../feeds/replay/replay-feed.js";
import { ASSETS } from "../../domain/signals/signal-keys.js";
import { calibratedStream, pricePath } from "../../application/ruling-streams.js";
import type { CalibratedHour } from "../../domain/calibration/walk-forward-calibrator.js";
import { DEFAULT_CALIBRATION } from "../../domain/calibration/calibration-map.js";
import type { CliCommand } from "../io.js";
import { fail, isoInstant, refused } from "../args.js";

export const verdictsUsage = "usage: verdicts export --asset <BTC|ETH|SOL|TAO> [--from ISO] [--to ISO] [--format csv|json]";

const exportArgs = z.object({
  asset: z.enum(ASSETS),
  from: isoInstant.optional(),
  to: isoInstant.optional(),
  format: z.enum(["csv", "json"]).default("csv"),
});


const CSV_HEADER = "time,ruling,score,confidence,horizon_hours,calibration,p_up";

function csvRow(r: CalibratedHour): string {
  return `${new Date(r.at).toISOString()},${r.ruling},${r.score},${r.confidence},${DEFAULT_CALIBRATION.horizonHours},${r.calibration},${r.pUp}`;
}

/**
 * `verdicts export`: the walk-forward hourly verdict stream over the bundled history, one row
 * per closed hour, as the service publishes it (the same engine and calibration code as the
 * EvidenceActor; each row's confidence from the map fitted at the start of its UTC day on
 * outcomes matured by then). Opens no store.
 */
export const verdictsCommand: CliCommand = async (args, io) => {
  const [sub, ...rest] = args;
  if (sub !== "export") return fail(io, verdictsUsage);
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({ args: rest, options: { asset: { type: "string" }, from: { type: "string" }, to: { type: "string" }, format: { type: "string" } } }));
  } catch (err) {
    return fail(io, `${verdictsUsage}\n  ${err instanceof Error ? err.message : String(err)}`);
  }
  const parsed = exportArgs.safeParse({ ...values, asset: typeof values.asset === "string" ? values.asset.toUpperCase() : values.asset });
  if (!parsed.success) return refused(io, verdictsUsage, parsed.error);
  const a = parsed.data;
  if (a.from !== undefined && a.to !== undefined && a.from > a.to) return fail(io, `${verdictsUsage}\n  from: must not be after to`);
  const feed = await ReplayMarketFeed.load(loadConfig().MARKET_DATA_DIR);
  const prices = pricePath(feed, a.asset, a.to ?? Number.MAX_SAFE_INTEGER);
  const last = prices.lastTime();
  if (last === null) return fail(io, `no ${a.asset} history up to ${a.to === undefined ? "the end of the data" : new Date(a.to).toISOString()}`);
  const first = prices.timeAt(0);
  const from = Math.max(first, a.from ?? first);
  const to = Math.min(last, a.to ?? last);
  // The window is in order but holds no bar of the history: after its end, inside a gap of the
  // data (TAO's September 2024), or within one hour. Said so, not blamed on the arguments.
  if (!(from <= to)) {
    const fromText = new Date(a.from ?? first).toISOString();
    return fail(io, a.to === undefined ? `no ${a.asset} hour in the history from ${fromText} on` : `no ${a.asset} hour in the history between ${fromText} and ${new Date(a.to).toISOString()}`);
  }
  const run = await calibratedStream(feed, { kind: "verdict", asset: a.asset }, from, to);
  if (a.format === "json") {
    io.stdout.write(
      `${JSON.stringify(
        run.rows.map((r) => ({ time: new Date(r.at).toISOString(), ruling: r.ruling, score: r.score, confidence: r.confidence, horizon_hours: DEFAULT_CALIBRATION.horizonHours, calibration: r.calibration, p_up: r.pUp })),
      )}\n`,
    );
    return 0;
  }
  const lines = [CSV_HEADER, ...run.rows.map(csvRow)];
  io.stdout.write(`${lines.join("\n")}\n`);
  return 0;
};
