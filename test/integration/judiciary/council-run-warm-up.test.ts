import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../../src/config/env.js";
import { buildService, type Service } from "../../../src/composition/build-service.js";
import type { Capability } from "../../../src/composition/capability.js";
import { judiciaryCapability } from "../../../src/composition/capabilities/judiciary.js";
import { marketDataCapability } from "../../../src/composition/capabilities/market-data.js";
import { taoCouncilRunSchema } from "../../../src/http/schemas/council.js";
import { freshStoreUrl } from "../../support/service.js";
import { sharedReplayFeed } from "../../support/replay-feed.js";
import { warmUpHold } from "../../support/warm-up-hold.js";

const hold = warmUpHold();

/**
 * `POST /v1/tao/council/run` nudges the TAO council, except while market time warms up: on Dapr
 * the councils then run on the founder's in-process host, and a session the Dapr copy made
 * meanwhile would be announced twice. The councils' own schedules are off here, so the store
 * has no TAO session and only the nudge could make one.
 */
describe("the TAO council run during the warm-up", () => {
  let service: Service;
  let url: string;
  let key: string;

  beforeAll(async () => {
    const config = loadConfig({ STORE_URL: freshStoreUrl("sqlite", "warm-council-run"), LOG_LEVEL: "silent", REPLAY_WARMUP_DAYS: "14", PORT: "0", HOST: "127.0.0.1" });
    const judiciaryUnscheduled: Capability = { ...judiciaryCapability, start: async () => undefined };
    service = await buildService(config, { feed: await sharedReplayFeed(), capabilities: [marketDataCapability, judiciaryUnscheduled, hold.capability] });
    key = (await service.deps.keyIssuer.create("pro", "warm-council-run", null)).apiKey;
    url = `http://127.0.0.1:${await service.listen()}`;
  }, 60_000);
  afterAll(async () => {
    hold.release();
    await service.stop();
  });

  const run = async () => taoCouncilRunSchema.parse(await (await fetch(`${url}/v1/tao/council/run`, { method: "POST", headers: { "x-api-key": key } })).json());

  it("answers with what is stored and asks for no deliberation while warming up; after it, nudges as usual", async () => {
    expect(service.deps.marketClock.warmingUp).toBe(true);
    const during = await run();
    expect(during).toMatchObject({ success: false, verdict: null });
    expect(during.detail).toMatch(/No TAO council verdict exists yet/);
    expect(during.detail).not.toMatch(/refresh of the current slot was requested/);

    hold.release();
    await service.warmedUp;
    const after = await run();
    expect(after.detail).toMatch(/refresh of the current slot was requested/);
  }, 120_000);
});
