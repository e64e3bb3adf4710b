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

/**
 * SPEC.md routes whose capability has not landed yet. Mounted with their real access rules,
 * they answer 503 not_ready, never invented data; each entry goes when its issue lands.
 */
const PENDING: readonly Pending[] = [
  { method: "get", path: "/v1/market/candles", access: free, summary: "OHLCV candles", issue: "market data" },
  { method: "get", path: "/v1/signals/latest", access: basic, summary: "Snapshot of the 27 signals", issue: "market data" },
  { method: "get", path: "/v1/macro/correlation", access: basic, summary: "Cross-asset macro breakdown", issue: "market data" },
  { method: "get", path: "/v1/signals/history", access: pro, summary: "History of one signal", issue: "market data" },
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
