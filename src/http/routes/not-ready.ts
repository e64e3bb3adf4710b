import { z } from "zod";
import { defineRoute, type Access, type HttpMethod, type Route } from "../route.js";
import { codedError } from "../errors.js";

interface Pending {
  readonly method: HttpMethod;
  readonly path: string;
  readonly access: Access;
  readonly summary: string;
  readonly issue: string;
}

const free: Access = { kind: "key", tier: "free" };
const basic: Access = { kind: "key", tier: "basic" };
const pro: Access = { kind: "key", tier: "pro" };
const open: Access = { kind: "public" };

/**
 * SPEC.md routes whose capability has not landed yet. Mounted with their real access rules,
 * they answer 503 not_ready, never invented data; each entry goes when its issue lands.
 */
const PENDING: readonly Pending[] = [
  { method: "get", path: "/v1/verdict/latest", access: free, summary: "Latest BTC verdict", issue: "Judiciary Engine and councils" },
  { method: "get", path: "/v1/regime/current", access: free, summary: "Current market regime", issue: "regime detection" },
  { method: "get", path: "/v1/regime/stats", access: free, summary: "Ghost Trader results by regime", issue: "Ghost Traders" },
  { method: "get", path: "/v1/agents/performance", access: free, summary: "BTC council agent accuracy", issue: "Ghost Traders" },
  { method: "get", path: "/v1/charting/signal", access: free, summary: "Flat payload for charting indicators", issue: "Judiciary Engine and councils" },
  { method: "get", path: "/v1/market/candles", access: free, summary: "OHLCV candles", issue: "market data" },
  { method: "get", path: "/v1/signals/latest", access: basic, summary: "Snapshot of the 27 signals", issue: "market data" },
  { method: "get", path: "/v1/regime/history", access: basic, summary: "Regime history (7 days)", issue: "regime detection" },
  { method: "get", path: "/v1/macro/correlation", access: basic, summary: "Cross-asset macro breakdown", issue: "market data" },
  { method: "get", path: "/v1/signals/history", access: pro, summary: "History of one signal", issue: "market data" },
  { method: "get", path: "/v1/signals/weights", access: pro, summary: "Adaptive signal weights", issue: "Ghost Traders" },
  { method: "get", path: "/v1/council/latest", access: pro, summary: "Latest BTC council session", issue: "Judiciary Engine and councils" },
  { method: "get", path: "/v1/sol/council", access: pro, summary: "Latest SOL council verdict", issue: "Judiciary Engine and councils" },
  { method: "post", path: "/v1/tao/council/run", access: { kind: "key", tier: "pro", limits: [{ name: "tao-council-run", limit: 5, windowSeconds: 60 }] }, summary: "Latest TAO council verdict (nudges a refresh)", issue: "Judiciary Engine and councils" },
  { method: "get", path: "/v1/tao/council", access: pro, summary: "Latest TAO council verdict", issue: "Judiciary Engine and councils" },
  { method: "get", path: "/v1/tao/status", access: open, summary: "TAO Ghost Trader status and gates", issue: "Ghost Traders" },
  { method: "get", path: "/v1/tao/track-record", access: open, summary: "TAO track record", issue: "Ghost Traders" },
  { method: "get", path: "/v1/sol/track-record", access: open, summary: "SOL track record", issue: "Ghost Traders" },
  { method: "get", path: "/v1/eth/track-record", access: open, summary: "ETH track record", issue: "Ghost Traders" },
  { method: "get", path: "/v1/btc/track-record", access: open, summary: "BTC track record", issue: "Ghost Traders" },
  { method: "get", path: "/v1/ghost/stats", access: open, summary: "Ghost Trader summary statistics", issue: "Ghost Traders" },
  { method: "post", path: "/v1/webhooks", access: basic, summary: "Register a webhook", issue: "webhooks" },
  { method: "get", path: "/v1/webhooks", access: basic, summary: "List webhooks", issue: "webhooks" },
  { method: "delete", path: "/v1/webhooks/{id}", access: basic, summary: "Delete a webhook", issue: "webhooks" },
  { method: "patch", path: "/v1/webhooks/{id}", access: basic, summary: "Pause or re-enable a webhook", issue: "webhooks" },
  { method: "post", path: "/v1/webhooks/test", access: basic, summary: "Send a test event", issue: "webhooks" },
  { method: "post", path: "/v1/webhooks/{id}/rotate-secret", access: basic, summary: "Rotate a webhook secret", issue: "webhooks" },
  { method: "get", path: "/v1/webhooks/{id}/deliveries", access: basic, summary: "Recent delivery attempts", issue: "webhooks" },
];

export function notReadyRoutes(implemented: ReadonlySet<string>): Route[] {
  return PENDING.filter((p) => !implemented.has(`${p.method} ${p.path}`)).map((p) =>
    defineRoute({
      method: p.method,
      path: p.path,
      summary: `${p.summary} (not ready yet)`,
      tags: ["pending"],
      access: p.access,
      response: z.object({}).describe("Not available until the capability lands"),
      errorStatuses: [503],
      handler: async () => {
        throw codedError(503, "not_ready", `This endpoint arrives with the ${p.issue} capability; it answers no invented data until then.`);
      },
    }),
  );
}
