import type { Capability } from "./capability.js";
import { marketDataCapability } from "./capabilities/market-data.js";
import { regimeCapability } from "./capabilities/regime.js";
import { judiciaryCapability } from "./capabilities/judiciary.js";
import { ghostCapability } from "./capabilities/ghost.js";
import { webhooksCapability } from "./capabilities/webhooks.js";

/**
 * Every capability the service runs, in dependency order: warm-up and start-up go down this
 * list, so a capability may read what the ones above it have produced.
 */
export const CAPABILITIES: readonly Capability[] = [marketDataCapability, regimeCapability, judiciaryCapability, ghostCapability, webhooksCapability];
