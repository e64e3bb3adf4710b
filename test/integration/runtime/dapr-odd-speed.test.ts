import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openStore } from "../../../src/store/open-store.js";
import { KeyIssuer } from "../../../src/application/key-issuer.js";
import { wallClock } from "../../../src/runtime/clocks/clock.js";
import { defaultReplayStart } from "../../../src/feeds/replay/replay-start.js";
import { ASSETS } from "../../../src/domain/signals/signal-keys.js";
import { verdictId } from "../../../src/domain/judiciary/verdict-id.js";
import { sharedReplayFeed } from "../../support/replay-feed.js";
import { startControlPlane, type ControlPlane } from "./support/dapr-cluster.js";
import { startServiceReplica, type ServiceReplica } from "./support/service-replica.js";

/**
 * A replay speed that divides no period: at 210x the verdicts' 5 market minutes are 1,428.571…
 * wall ms and the hourly turns 17,142.857… ms, which go to daprd's reminder API in microseconds
 * (`goDuration`). The real service on real daprd 1.16.2: market time runs for three market hours
 * and every 5-minute slot of every asset has its verdict, every hour its regime, none missed.
 * A turn held up past a whole period (1.4 wall seconds here; CI on two cores lost BTC's 07:30 slot
 * so) is about the next slot, and makes the slot it was due for first (VerdictActor's catch-up).
 */
const SPEED = 210;
const MIN = 60_000;
const HOUR = 60 * MIN;
const RUN_MS = 3 * HOUR;

let plane: ControlPlane;
let r: ServiceReplica | undefined;

beforeAll(async () => {
  plane = await startControlPlane();
}, 120_000);

afterAll(async () => {
  await r?.service.stop("SIGKILL");
  await r?.daprd.stop("SIGKILL");
  await plane?.stop();
}, 60_000);

describe(`the service on Dapr at REPLAY_SPEED=${SPEED} (periods that are not whole milliseconds)`, () => {
  it("makes every verdict slot and every hourly regime over three market hours", async () => {
    const runFrom = defaultReplayStart((await sharedReplayFeed()).span());
    const storeUrl = `sqlite:${join(mkdtempSync(join(tmpdir(), "dapr-odd-speed-")), "mis.sqlite")}`;
    const store = await openStore(storeUrl);
    const key = (await new KeyIssuer(store.apiKeys, wallClock).create("pro", "odd-speed", null)).apiKey;
    try {
      r = await startServiceReplica(plane, "odd", { appId: "mis-odd-speed", storeUrl, env: { REPLAY_SPEED: String(SPEED), REPLAY_WARMUP_DAYS: "1" } });
      const replica = r;
      await expect.poll(async () => (await fetch(`${replica.url}/v1/health/ready`)).status, { timeout: 90_000, interval: 500, message: replica.output() }).toBe(200);
      // Three market hours are 51 wall seconds at 210x.
      let latest = Number.NaN;
      await expect
        .poll(
          async () => {
            const res = await fetch(`${replica.url}/v1/verdict/latest`, { headers: { "x-api-key": key } });
            latest = res.status === 200 ? Date.parse(((await res.json()) as { timestamp: string }).timestamp) : Number.NaN;
            return latest >= runFrom + RUN_MS;
          },
          { timeout: 90_000, interval: 500, message: replica.output() },
        )
        .toBe(true);
      // From the first slot after the clock ran to one before the newest (its turn may still run).
      const first = Math.ceil(runFrom / (5 * MIN)) * 5 * MIN + 5 * MIN;
      const missing: string[] = [];
      let slots = 0;
      for (let at = first; at < latest; at += 5 * MIN) {
        for (const asset of ASSETS) {
          slots += 1;
          const stored = await store.verdicts.byId(verdictId(asset, at));
          if (stored?.at !== at) missing.push(`${asset} ${new Date(at).toISOString()}`);
        }
      }
      expect(missing, replica.output()).toEqual([]);
      expect(slots).toBeGreaterThanOrEqual(4 * 33);
      const hours = (await store.regimeHistory.between(Math.ceil(runFrom / HOUR) * HOUR, latest)).map((row) => row.at);
      const expected = Array.from({ length: Math.floor((latest - Math.ceil(runFrom / HOUR) * HOUR) / HOUR) + 1 }, (_, i) => Math.ceil(runFrom / HOUR) * HOUR + i * HOUR);
      expect(hours).toEqual(expected);
      console.info(`[odd speed] ${slots} verdict slots and ${hours.length} hourly regimes at ${SPEED}x, none missing`);
    } finally {
      await store.close();
    }
  }, 240_000);
});
