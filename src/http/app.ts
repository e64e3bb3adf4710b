import { createHash } from "node:crypto";
import express, { type Express, type Router } from "express";
import helmet from "helmet";
import type { AppDeps } from "./app-deps.js";
import type { Route } from "./route.js";
import { jsonBody } from "./middleware/json-body.js";
import { inSequence, LiteralRoutes, mountRoute, methodNotAllowedOrNotFound, sendJsonText, type RouterDeps } from "./router.js";
import { requestId } from "./middleware/request-id.js";
import { accessLog } from "./middleware/access-log.js";
import { errorHandler } from "./middleware/error-handler.js";
import { httpMetrics } from "./middleware/http-metrics.js";
import { responseDeadline } from "./middleware/response-deadline.js";
import { buildOpenApi } from "./openapi.js";
import { ResponseCache } from "./response-cache.js";
import { IpLimiter } from "../application/ip-limiter.js";
import { trustProxySetting } from "../config/env.js";
import { healthRoutes } from "./routes/health.js";
import { keyRoutes } from "./routes/keys.js";
import { newsletterRoutes } from "./routes/newsletter.js";
import { mountPages } from "./routes/pages.js";
import { mountUnsubscribePage } from "./routes/unsubscribe-page.js";

export interface BuiltApp {
  readonly app: Express;
  readonly routes: readonly Route[];
  readonly cache: ResponseCache;
}

/** Capability route sets beyond the foundation, supplied by the composition root. */
export type RouteSet = (deps: AppDeps) => Route[];

/**
 * @param routers mounted ahead of the API pipeline (Dapr's actor and pub/sub callbacks, which
 * daprd calls on the app port).
 */
export function createApp(deps: AppDeps, extraRouteSets: readonly RouteSet[] = [], routers: readonly Router[] = []): BuiltApp {
  const app = express();
  app.disable("x-powered-by");
  app.set("trust proxy", trustProxySetting(deps.config.TRUST_PROXY));
  app.set("etag", false);

  const routes = [...healthRoutes(deps), ...keyRoutes(deps), ...newsletterRoutes(deps), ...extraRouteSets.flatMap((s) => s(deps))];
  const openApi = buildOpenApi(routes, deps.config.PUBLIC_BASE_URL);
  // Shared through the store: every replica serves an entry alike until it expires (issue 17).
  // Entries are kept apart by the response schemas and the market feed, so a process started
  // on the same store after an upgrade that changed a body's shape (or on the other feed) never
  // serves bodies of another shape. A build that computes a figure differently in the same
  // shape shares entries with the one before until they expire (an hour at most).
  const cache = new ResponseCache(deps.wallClock, { shared: deps.store.responseCache, namespace: cacheNamespace(openApi, deps.config.MARKET_FEED) });

  // Ahead of the API pipeline: daprd's callbacks carry their own body formats and no API key.
  for (const router of routers) app.use(router);
  // Filled as the routes are mounted below; ahead of them so a literal path skips the walk.
  const literal = new LiteralRoutes();
  app.use(
    inSequence(
      responseDeadline(responseDeadlineMs(deps.config.HTTP_REQUEST_TIMEOUT_MS)),
      requestId,
      accessLog(deps.logger),
      httpMetrics,
      securityHeaders(deps.config.PUBLIC_BASE_URL),
      literal.dispatch,
    ),
  );

  // Serialised once: ~115 KB, 0.5 ms of JSON.stringify per request for anyone, without a key.
  const openApiText = JSON.stringify(openApi);
  app.get("/v1/openapi.json", (req, res) => {
    sendJsonText(req, res, 200, openApiText);
  });

  const routerDeps: RouterDeps = {
    keyVerifier: deps.keyVerifier,
    limiter: deps.limiter,
    ipLimiter: new IpLimiter(deps.store.counters, deps.store.slidingWindows, deps.wallClock, deps.clientTag),
    cache,
    tierLimits: deps.tierLimits,
    upgradeUrl: `${deps.config.PUBLIC_BASE_URL}/#pricing`,
    parseBody: jsonBody("64kb"),
    literalPaths: new Set(routes.filter((r) => !r.path.includes("{")).map((r) => r.path.toLowerCase())),
    cacheable: () => !deps.marketClock.warmingUp,
  };
  for (const route of routes) mountRoute(app, route, routerDeps, literal);
  mountPages(app);
  mountUnsubscribePage(app, deps.newsletter);
  const fallback = methodNotAllowedOrNotFound([
    ...routes,
    { method: "get", path: "/v1/openapi.json" } as Route,
  ]);
  app.use(fallback);
  app.use(errorHandler(deps.logger));
  return { app, routes, cache };
}

/** The response schemas (the OpenAPI document, servers left out) and the feed, as a short digest. */
function cacheNamespace(openApi: object, marketFeed: string): string {
  const { servers: _servers, ...shapes } = openApi as { servers?: unknown };
  return createHash("sha256").update(JSON.stringify(shapes)).update(`\n${marketFeed}`).digest("base64url").slice(0, 16);
}

/** Node runs a timer longer than this (2^31 - 1 ms, ~24.8 days) after 1 ms instead. */
const MAX_TIMER_MS = 2_147_483_647;

/**
 * How long an answer may take from its request to its last byte: four times the time a client
 * has to send its request (2 minutes by default), room for the slowest handler (a webhook test
 * send reaching five URLs) and a slow link, and still a bound. Capped where Node's timers end: a
 * huge HTTP_REQUEST_TIMEOUT_MS would otherwise cut every connection at once.
 */
export function responseDeadlineMs(requestTimeoutMs: number): number {
  return Math.min(4 * requestTimeoutMs, MAX_TIMER_MS);
}

/**
 * helmet's headers, with a Content-Security-Policy as tight as the pages need: no inline styles
 * or fonts from elsewhere (the pages set styles through the CSSOM only), and no framing at all.
 * `upgrade-insecure-requests` only where the service is published over https: on a plain-http
 * deployment (docker compose reached by a LAN name) it made the browser ask for the dashboard's
 * script and stylesheet over https, which failed, and the page stayed blank.
 */
function securityHeaders(publicBaseUrl: string) {
  const https = publicBaseUrl.startsWith("https:");
  return helmet({
    contentSecurityPolicy: {
      directives: { styleSrc: ["'self'"], fontSrc: ["'self'"], frameAncestors: ["'none'"], upgradeInsecureRequests: https ? [] : null },
    },
    xFrameOptions: { action: "deny" },
  });
}
