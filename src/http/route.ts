import type { Request, Response } from "express";
import type { z } from "zod";
import type { Tier } from "../domain/access/tiers.js";
import type { ApiKeyRecord } from "../store/ports/api-keys.js";
import type { ExtraLimit } from "../application/usage-limiter.js";
import type { RouteIpLimit } from "./limit-refusals.js";

export type HttpMethod = "get" | "post" | "delete" | "patch";

/** Who may call a route: anyone, or a key of at least `tier` (SPEC.md endpoint table). */
export type Access =
  | { readonly kind: "public"; readonly ipLimit?: RouteIpLimit }
  | { readonly kind: "key"; readonly tier: Tier; readonly limits?: readonly ExtraLimit[] };

export interface Caller {
  readonly key: ApiKeyRecord;
  /** The key as presented, for the routes that act on it (rotate, deactivate). Never logged. */
  readonly presented: string;
}

export interface RouteContext<Q, B, P> {
  readonly req: Request;
  readonly res: Response;
  readonly query: Q;
  readonly body: B;
  readonly params: P;
  readonly caller: Caller | null;
  readonly requestId: string;
  readonly ip: string;
}

type Inferred<S> = S extends z.ZodType ? z.infer<S> : undefined;

/** What a handler returns: the body without the cache fields, which the framework adds. */
export type HandlerBody<R extends z.ZodType> = Omit<z.input<R>, "cached" | "cache_ttl_seconds">;

/**
 * One endpoint, declared once: its schemas validate input, type the handler, check the output
 * and document the route in /v1/openapi.json.
 */
export interface RouteDef<
  Q extends z.ZodType | undefined = undefined,
  B extends z.ZodType | undefined = undefined,
  P extends z.ZodType | undefined = undefined,
  R extends z.ZodType = z.ZodType,
> {
  readonly method: HttpMethod;
  /** OpenAPI-style path, e.g. /v1/webhooks/{id}. */
  readonly path: string;
  readonly summary: string;
  readonly description?: string;
  readonly tags: readonly string[];
  readonly access: Access;
  readonly query?: Q;
  readonly body?: B;
  readonly params?: P;
  readonly response: R;
  readonly successStatus?: number;
  /** Cached routes add `cached` and `cache_ttl_seconds` to the body. */
  readonly cacheTtlSeconds?: number;
  /** Documented error statuses beyond the access ones. */
  readonly errorStatuses?: readonly number[];
  /** The body of an error status when it is not the default one for that status (openapi.ts). */
  readonly errorSchemas?: Readonly<Record<number, z.ZodType>>;
  readonly handler: (ctx: RouteContext<Inferred<Q>, Inferred<B>, Inferred<P>>) => Promise<HandlerBody<R>>;
}

/** A route with its types erased, as the router holds it. */
export interface Route extends Omit<RouteDef, "query" | "body" | "params" | "handler"> {
  readonly query?: z.ZodType;
  readonly body?: z.ZodType;
  readonly params?: z.ZodType;
  readonly handler: (ctx: RouteContext<unknown, unknown, unknown>) => Promise<unknown>;
}

/**
 * Checks a handler against its own schemas, then erases the types for the router. Sound because
 * the router parses query, body and params with those same schemas before calling the handler.
 */
export function defineRoute<
  Q extends z.ZodType | undefined = undefined,
  B extends z.ZodType | undefined = undefined,
  P extends z.ZodType | undefined = undefined,
  R extends z.ZodType = z.ZodType,
>(def: RouteDef<Q, B, P, R>): Route {
  return def as unknown as Route;
}
