import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../../src/config/env.js";
import { buildService, type Service, type ServiceOverrides } from "../../src/composition/build-service.js";
import { freshMongoUrl } from "./mongo.js";
import { sharedReplayFeed } from "./replay-feed.js";

export interface RunningService {
  readonly url: string;
  readonly service: Service;
  stop(): Promise<void>;
}

export type StoreKind = "sqlite" | "mongodb";

/** A STORE_URL for a fresh, empty store of the given kind. */
export function freshStoreUrl(kind: StoreKind, prefix = "svc"): string {
  if (kind === "mongodb") return freshMongoUrl(prefix);
  return `sqlite:${join(mkdtempSync(join(tmpdir(), `${prefix}-`)), "mis.sqlite")}`;
}

/**
 * The real service, in this process, on an ephemeral loopback port, resolved once warm-up is
 * over. Warm-up is off unless a suite asks for it (REPLAY_WARMUP_DAYS): suites about the HTTP
 * foundation need no market history, and suites about the engines say how much they need.
 */
export async function startService(env: Record<string, string> = {}, overrides: ServiceOverrides = {}): Promise<RunningService> {
  const config = loadConfig({ STORE_URL: freshStoreUrl("sqlite"), LOG_LEVEL: "silent", REPLAY_WARMUP_DAYS: "0", ...env, PORT: "0", HOST: "127.0.0.1" });
  const service = await buildService(config, { feed: await sharedReplayFeed(), ...overrides });
  const port = await service.listen();
  await service.warmedUp;
  return { url: `http://127.0.0.1:${port}`, service, stop: () => service.stop() };
}

/** Creates a key straight through the service's issuer (what the operator CLI does). */
export async function createKey(running: RunningService, tier: "free" | "basic" | "pro"): Promise<string> {
  const issued = await running.service.deps.keyIssuer.create(tier, "test", null);
  return issued.apiKey;
}
