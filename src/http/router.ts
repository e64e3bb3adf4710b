import type { Express, NextFunction, Request, RequestHandler, Response } from "express";
import type { z } from "zod";
import { tierAllows, type TierLimitTable } from "../domain/access/tiers.js";
import type { KeyVerifier } from "../application/key-verifier.js";
import type { QuotaState, UsageLimiter } from "../application/usage-limiter.js";
import type { IpLimiter } from "../application/ip-limiter.js";
import type { ResponseCache } from "./response-cache.js";
import { ApiError } from "./error-codes.js";
import { parseInputs } from "./validation.js";
import { ipLimitError, usageRefusalError, type RouteIpLimit } from "./limit-refusals.js";
import type { Caller, Route } from "./route.js";

export interface RouterDeps {
  readonly keyVerifier: KeyVerifier;
  readonly limiter: UsageLimiter;
  readonly ipLimiter: IpLimiter;
  readonly cache: ResponseCache;
  readonly tierLimits: TierLimitTable;
  readonly upgradeUrl: string;
  /** Reads the JSON body; it runs after authentication, so a caller without a key learns nothing about bodies. */
  readonly parseBody: RequestHandler;
  /** Paths without parameters, lower-case: a templated route never answers them (/v1/webhooks/test is not an {id}). */
  readonly literalPaths: ReadonlySet<string>;
  /**
   * False while market time is warming up: the fast-forward moves it minutes per wall
   * millisecond, so a cached body would be stale market-wise before its next read, and served
   * for its whole TTL after the warm-up (a "latest" verdict days old).
   */
  readonly cacheable: () => boolean;
}

export function expressPath(openApiPath: string): string {
  return openApiPath.replace(/\{(\w+)\}/g, ":$1");
}

/** Counts a per-IP hit; throws the route's 429 when the IP is over its limit. */
async function hitIpLimit(deps: RouterDeps, limit: RouteIpLimit, req: Request): Promise<void> {
  const outcome = await deps.ipLimiter.hit(limit, req.ip ?? "unknown");
  if (!outcome.allowed) throw ipLimitError(limit, outcome.retryAfterSeconds);
}

async function authenticate(req: Request, res: Response, route: Route, deps: RouterDeps): Promise<Caller | null> {
  if (route.access.kind === "public") {
    const limit = route.access.ipLimit;
    if (limit?.counts === "every-request") await hitIpLimit(deps, limit, req);
    return null;
  }
  const presented = req.get("x-api-key");
  if (!presented) throw new ApiError("missing_api_key");
  const verdict = await deps.keyVerifier.verify(presented);
  if (verdict.status === "not_found") throw new ApiError("invalid_api_key");
  if (verdict.status === "disabled") throw new ApiError("key_inactive");
  const { key } = verdict;
  const need = route.access.tier;
  const limits = deps.tierLimits[key.tier];
  if (!tierAllows(key.tier, need)) {
    // Not counted (DECISIONS 2), but a keyed answer all the same: it shows the quota as it stands.
    setQuotaHeaders(res, await deps.limiter.quotaNow(key.usageId, limits.dailyQuota));
    throw new ApiError("tier_required", { required: need, current: key.tier, upgradeUrl: deps.upgradeUrl });
  }
  const args = [key.usageId, limits.dailyQuota, limits.perMinute, route.access.limits ?? []] as const;
  const usage = route.access.quota === "count-only" ? await deps.limiter.countWithoutRefusing(...args) : await deps.limiter.consume(...args);
  setQuotaHeaders(res, usage.quota);
  if (!usage.ok) throw usageRefusalError(usage.refusal, deps.upgradeUrl);
  return { key, presented, quota: usage.quota };
}

function setQuotaHeaders(res: Response, quota: QuotaState): void {
  res.setHeader("X-RateLimit-Limit", String(quota.limit));
  res.setHeader("X-RateLimit-Remaining", String(quota.remaining));
  res.setHeader("X-RateLimit-Reset", String(quota.resetEpochSeconds));
}

/**
 * A cached body's JSON text with the fields every cached answer ends with (DECISIONS 2), the same
 * bytes as `JSON.stringify({ ...body, cached, cache_ttl_seconds })`, without serialising the body
 * again on every hit.
 */
export function withCacheFields(json: string, cached: boolean, ttlLeft: number): string {
  const open = json.slice(0, -1);
  return `${open}${open === "{" ? "" : ","}"cached":${cached},"cache_ttl_seconds":${ttlLeft}}`;
}

/**
 * Writes JSON text as Express's `res.type("application/json").send(text)` does for a cached
 * answer: the same status, Content-Type, Content-Length and bytes, no body for HEAD, and Express's
 * own freshness check (`req.fresh`: a 304 where the request's conditions say the caller's copy is
 * current). Without Express re-parsing the Content-Type to add its charset on every call: part of
 * the ~8 µs a profile found in the router (bench/README.md).
 */
export function sendJsonText(req: Request, res: Response, status: number, text: string): void {
  res.statusCode = status;
  if (req.fresh) {
    res.statusCode = 304;
    res.end();
    return;
  }
  const body = Buffer.from(text, "utf8");
  res.setHeader("Content-Type", "application/json; charset=utf-8");
  res.setHeader("Content-Length", body.length);
  if (req.method === "HEAD") res.end();
  else res.end(body);
}

function cacheKey(route: Route, params: unknown, query: unknown): string {
  return `${route.method} ${route.path} ${JSON.stringify(params ?? null)} ${JSON.stringify(query ?? null)}`;
}

/** Fails loudly (500, logged) when a handler's output breaks its own documented schema. */
function checkedBody(route: Route, body: Record<string, unknown>): Record<string, unknown> {
  const r = (route.response as z.ZodType).safeParse(body);
  if (!r.success) throw new Error(`response of ${route.method.toUpperCase()} ${route.path} breaks its schema: ${r.error.message}`);
  return body;
}

/** The authenticated caller, handed from the first stage of a route to the last. */
const callers = new WeakMap<Request, Caller | null>();

/** The route pattern a request was answered by, for metric labels (Express's `req.route` is unset on the literal path). */
const answeredBy = new WeakMap<Request, string>();

export function routePathOf(req: Request): string | undefined {
  return answeredBy.get(req) ?? (req.route as { path?: string } | undefined)?.path;
}

/**
 * Routes without path parameters, by method and exact path, found with one Map look-up. Express
 * finds a route by testing every route layer's pattern in order, which cost a route mounted late
 * about 5 % of its throughput with ~45 routes (bench/README.md). A request that misses (HEAD, a
 * trailing slash, other letter case, a templated path) falls through to Express's own routing,
 * where every route is mounted as well, so what answers is the same either way.
 */
export class LiteralRoutes {
  private readonly chains = new Map<string, { readonly path: string; readonly stages: readonly RequestHandler[] }>();

  add(route: Route, stages: readonly RequestHandler[]): void {
    this.chains.set(`${route.method.toUpperCase()} ${route.path}`, { path: expressPath(route.path), stages });
  }

  readonly dispatch: RequestHandler = (req, res, next) => {
    const chain = this.chains.get(`${req.method} ${req.path}`);
    if (chain === undefined) return next();
    answeredBy.set(req, chain.path);
    runStages(chain.stages, req, res, next);
  };
}

/**
 * Runs middleware one after another as Express would, ending in `next`: an error passed on, thrown,
 * or a rejected promise goes to `next` at once (and so to the error handler), as Express does it.
 */
function runStages(stages: readonly RequestHandler[], req: Request, res: Response, next: NextFunction): void {
  let at = 0;
  const step = (err?: unknown): void => {
    if (err !== undefined && err !== null) return next(err);
    const stage = stages[at++];
    if (stage === undefined) return next();
    try {
      const ran: unknown = stage(req, res, step);
      if (ran instanceof Promise) ran.catch(next);
    } catch (thrown) {
      next(thrown);
    }
  };
  step();
}

/**
 * Middleware every request passes through, as one Express layer: Express's router pays an
 * allocation-heavy step per layer (about 2 KB a request each, measured with a heap sampling
 * profile), and these run for every request anyway.
 */
export function inSequence(...stages: readonly RequestHandler[]): RequestHandler {
  return (req, res, next) => runStages(stages, req, res, next);
}

export function mountRoute(app: Express, route: Route, deps: RouterDeps, literal: LiteralRoutes): void {
  const authenticated = async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    try {
      callers.set(req, await authenticate(req, res, route, deps));
      next();
    } catch (err) {
      next(err);
    }
  };
  const handler = async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    try {
      const caller = callers.get(req) ?? null;
      // Read only where the route has a schema for them: Express parses the query string anew
      // at each read of req.query, and a route without a query schema ignores it.
      const { params, query, body } = parseInputs(
        { path: route.params, query: route.query, body: route.body },
        { path: route.params && req.params, query: route.query && req.query, body: route.body && req.body },
      );
      if (route.access.kind === "public" && route.access.ipLimit?.counts === "valid-requests") {
        await hitIpLimit(deps, route.access.ipLimit, req);
      }
      const ctx = {
        req,
        res,
        query,
        body,
        params,
        caller,
        requestId: String(res.getHeader("X-Request-Id") ?? ""),
        // Worked out from the socket and the trusted proxies' headers only by the routes that read it.
        get ip(): string {
          return req.ip ?? "";
        },
      };
      const ttl = route.cacheTtlSeconds;
      if (ttl === undefined || !deps.cacheable()) {
        const out = (await route.handler(ctx)) as Record<string, unknown>;
        // Not a cacheable answer: a caller's own resources (webhook URLs, a new key's secret) or
        // one that changes with each call. The key travels in X-API-Key, not Authorization, so
        // a shared cache is not bound to treat a keyed answer as private unless told. A cached
        // route answered afresh (warm-up) says so too: its body expires at once.
        res.setHeader("Cache-Control", "no-store");
        res.status(route.successStatus ?? 200).json(checkedBody(route, ttl === undefined ? out : { ...out, cached: false, cache_ttl_seconds: 0 }));
        return;
      }
      const entry = await deps.cache.getOrCompute(cacheKey(route, params, query), ttl, async () => {
        const out = { ...((await route.handler(ctx)) as Record<string, unknown>) };
        // Added per answer (withCacheFields): a handler's own would be written twice.
        delete out.cached;
        delete out.cache_ttl_seconds;
        checkedBody(route, { ...out, cached: false, cache_ttl_seconds: ttl });
        return out;
      });
      res.setHeader("Cache-Control", `${caller ? "private" : "public"}, max-age=${entry.ttlLeft}`);
      // The key travels in a header, so a browser's cache would match a keyed answer on its URL
      // alone: after a revocation, or with another key pasted in, it could answer from its copy
      // without asking (a revoked key "working", a Free key shown a Pro answer, calls uncounted).
      if (caller) res.setHeader("Vary", "X-API-Key");
      sendJsonText(req, res, route.successStatus ?? 200, withCacheFields(entry.json, entry.cached, entry.ttlLeft));
    } catch (err) {
      next(err);
    }
  };
  // In any letter case, as Express matches routes: /v1/webhooks/TEST is not an {id} either.
  const notShadowed: RequestHandler = (req, _res, next) => (deps.literalPaths.has(req.path.replace(/(.)\/$/, "$1").toLowerCase()) ? next("route") : next());
  const templated = route.path.includes("{");
  // GET carries no body; skipping the parser for it doubled bare-Express throughput.
  const stages: RequestHandler[] = [...(templated ? [notShadowed] : []), authenticated, ...(route.method === "get" ? [] : [deps.parseBody]), handler];
  app[route.method](expressPath(route.path), ...stages);
  if (!templated) literal.add(route, stages);
}

/** 405 for a known path with another method, 404 for the rest (DECISIONS 2). */
export function methodNotAllowedOrNotFound(routes: readonly Route[]) {
  const patterns = routes.map((r) => ({
    method: r.method.toUpperCase(),
    literal: !r.path.includes("{"),
    // Case-insensitive, as Express routes: a path it serves in any case is a known path here too.
    // The literal parts escaped: "/v1/openapi.json" must not match "/v1/openapi_json".
    re: new RegExp(`^${r.path.split(/\{\w+\}/).map(escapeRegExp).join("[^/]+")}/?$`, "i"),
  }));
  return (req: Request, _res: Response, next: NextFunction): void => {
    const matching = patterns.filter((p) => p.re.test(req.path));
    // A literal path beats a template: /v1/webhooks/test is that route's, not /v1/webhooks/{id}'s.
    const literal = matching.filter((p) => p.literal);
    const allowed = (literal.length > 0 ? literal : matching).map((p) => p.method);
    if (allowed.length === 0) return next(new ApiError("not_found"));
    const allow = [...new Set([...allowed, ...(allowed.includes("GET") ? ["HEAD"] : [])])].join(", ");
    next(new ApiError("method_not_allowed", { allow }));
  };
}

/** `text` as a regular expression that matches exactly it. */
function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
