import type { Request, Response } from "express";
import type { z } from "zod";
import type { Tier } from "../domain/access/tiers.js";
import type { ApiKeyRecord } from "../store/ports/api-keys.js";
import type { ExtraLimit, QuotaState } from "../application/usage-limiter.js";
import type { RouteIpLimit } from "./limit-refusals.js";
import type { ErrorCode } from "./error-codes.js";

export type HttpMethod = "get" | "post" | "delete" | "patch";

/** Anyone may call the route, within its per-IP limit if it has one. */
export interface PublicAccess {
  readonly kind: "public";
  readonly ipLimit?: RouteIpLimit;
}

/** Only a key of at least `tier` may call the route (SPEC.md endpoint table). */
export interface KeyAccess {
  readonly kind: "key";
  readonly tier: Tier;
  readonly limits?: readonly ExtraLimit[];
  /**
   * "count-only": the daily quota and the tier's per-minute limit count the request but never
   * refuse it, so whoever holds a key can revoke or rotate it after someone else spent its
   * quota; `limits` still refuse. Default "refuse".
   */
  readonly quota?: "refuse" | "count-only";
}

/** Who may call a route. */
export type Access = PublicAccess | KeyAccess;

export interface Caller {
  readonly key: ApiKeyRecord;
  /** The key as presented, for the routes that act on it (rotate, deactivate). Never logged. */
  readonly presented: string;
  /** The daily quota with this request counted: what the X-RateLimit headers say. */
  readonly quota: QuotaState;
}

/** What a handler is handed; `caller` is the authenticated key on keyed routes, null on public ones. */
export interface RouteContext<Q, B, P, C extends Caller | null = Caller | null> {
  readonly req: Request;
  readonly res: Response;
  readonly query: Q;
  readonly body: B;
  readonly params: P;
  readonly caller: C;
  readonly requestId: string;
  readonly ip: string;
}

/** A keyed route's context: the router authenticated the caller before the handler runs. */
export type KeyedRouteContext<Q, B, P> = RouteContext<Q, B, P, Caller>;

/** A public route's context: nobody is authenticated. */
export type PublicRouteContext<Q, B, P> = RouteContext<Q, B, P, null>;

/** The context a route's handler gets, by its access: a keyed route's caller is never null. */
type HandlerContext<Q, B, P, A extends Access> = A extends KeyAccess ? KeyedRouteContext<Q, B, P> : PublicRouteContext<Q, B, P>;

/** A route's query, body or path schema; undefined when the route takes none. */
type InputSchema = z.ZodType | undefined;

type Inferred<S> = S extends z.ZodType ? z.infer<S> : undefined;

/** What a handler returns: the body without the cache fields, which the framework adds. */
export type HandlerBody<R extends z.ZodType> = Omit<z.input<R>, "cached" | "cache_ttl_seconds">;

/**
 * One endpoint, declared once: its schemas validate input, type the handler, check the output
 * and document the route in /v1/openapi.json.
 */
export interface RouteDef<Q extends InputSchema = undefined, B extends InputSchema = undefined, P extends InputSchema = undefined, R extends z.ZodType = z.ZodType, A extends Access = Access> {
  readonly method: HttpMethod;
  /** OpenAPI-style path, e.g. /v1/webhooks/{id}. */
  readonly path: string;
  readonly summary: string;
  readonly description?: string;
  readonly tags: readonly string[];
  readonly access: A;
  readonly query?: Q;
  readonly body?: B;
  readonly params?: P;
  readonly response: R;
  readonly successStatus?: number;
  /**
   * A GET that SPEC also lists with HEAD: documented as an operation of its own. Express answers
   * HEAD on every GET route (the GET's status and headers, no body); only these are promised.
   */
  readonly documentHead?: true;
  /** Cached routes add `cached` and `cache_ttl_seconds` to the body. */
  readonly cacheTtlSeconds?: number;
  /**
   * The errors the handler itself may answer (error-codes.ts). Those of the pipeline (access,
   * input validation, body parsing, 405, 500) are documented for every route that can meet them.
   */
  readonly errors?: readonly ErrorCode[];
  readonly handler: (ctx: HandlerContext<Inferred<Q>, Inferred<B>, Inferred<P>, A>) => Promise<HandlerBody<R>>;
}

/** A route with its types erased, as the router holds it. */
export interface Route extends Omit<RouteDef, "query" | "body" | "params" | "handler"> {
  readonly query?: z.ZodType;
  readonly body?: z.ZodType;
  readonly params?: z.ZodType;
  readonly handler: (ctx: RouteContext<unknown, unknown, unknown>) => Promise<unknown>;
}

/**
 * Checks a handler against its own schemas and access, then erases the types for the router.
 * Sound because the router parses query, body and params with those same schemas before calling
 * the handler, and answers a keyed route 401 before its handler when no valid key came.
 */
export function defineRoute<Q extends InputSchema = undefined, B extends InputSchema = undefined, P extends InputSchema = undefined, R extends z.ZodType = z.ZodType, A extends Access = Access>(
  def: RouteDef<Q, B, P, R, A>,
): Route {
  return def as unknown as Route;
}
