import { describe, expect, it } from "vitest";
import { loadConfig } from "../../../src/config/env.js";
import { buildService } from "../../../src/composition/build-service.js";
import { captureLogger } from "../../support/capture-logger.js";
import { freshStoreUrl } from "../../support/service.js";
import { sharedReplayFeed } from "../../support/replay-feed.js";

/** The warnings a service built with `env` logs, as an operator reads them at start. */
async function startWarnings(env: Record<string, string>): Promise<Array<Record<string, unknown>>> {
  const { logger, lines } = captureLogger("warn");
  const config = loadConfig({ STORE_URL: freshStoreUrl("sqlite", "base-url"), REPLAY_WARMUP_DAYS: "0", SMTP_URL: "smtp://127.0.0.1:2525", ...env });
  const service = await buildService(config, { logger, feed: await sharedReplayFeed(), capabilities: [] });
  await service.stop();
  return lines.filter((l) => l.level === 40);
}

describe("a service that sends mail with links to itself", () => {
  it("warns at start when PUBLIC_BASE_URL is left at localhost, naming the setting", async () => {
    const warnings = await startWarnings({});
    const line = warnings.find((l) => String(l.msg).startsWith("PUBLIC_BASE_URL is a loopback address"));
    expect(line?.public_base_url).toBe("http://localhost:8080");
  });

  it("says nothing of it when PUBLIC_BASE_URL is an address readers reach", async () => {
    const warnings = await startWarnings({ PUBLIC_BASE_URL: "https://api.market-intel.example" });
    expect(warnings.map((l) => l.msg)).not.toContainEqual(expect.stringMatching(/PUBLIC_BASE_URL/));
  });
});
