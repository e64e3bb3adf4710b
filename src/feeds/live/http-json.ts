import type { z } from "zod";
import { ProviderError } from "./provider-error.js";
import { asksToWait, retryAfterMs } from "./throttle-answer.js";

export interface HttpJsonOptions {
  readonly timeoutMs: number;
  readonly headers?: Readonly<Record<string, string>>;
  /** The largest body read; a longer one is refused as it streams in (default MAX_BODY_BYTES). */
  readonly maxBodyBytes?: number;
}

/**
 * The largest provider answer read by default. The biggest documented one, DefiLlama's whole
 * stablecoin history, is a few MB; a body past this is a fault (a proxy's error page, a
 * misbehaving server), and reading it whole first cost a gigabyte of heap for 80 MB.
 */
export const MAX_BODY_BYTES = 16 * 1024 * 1024;

/**
 * The body as text, refused as soon as it passes `maxBytes` (the stream is cancelled), so a
 * provider cannot make the service buffer more than that. Its failures are ProviderErrors.
 */
export async function readBodyCapped(provider: string, response: Response, maxBytes: number, timeoutMs: number): Promise<string> {
  const reader = response.body?.getReader();
  if (reader === undefined) return "";
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > maxBytes) {
        await reader.cancel().catch(() => undefined);
        throw new ProviderError(provider, "malformed", `response body over ${maxBytes} bytes`);
      }
      chunks.push(value);
    }
  } catch (err) {
    if (err instanceof ProviderError) throw err;
    const name = err instanceof Error ? err.name : "";
    if (name === "TimeoutError" || name === "AbortError") throw new ProviderError(provider, "timeout", `body not complete within ${timeoutMs} ms`);
    throw new ProviderError(provider, "network", "body read failed");
  }
  return Buffer.concat(chunks).toString("utf8");
}

/**
 * GETs a JSON document and validates it with `schema`. Every failure becomes a ProviderError
 * whose kind says whether retrying can help; a payload that does not match the provider's
 * documented shape is `malformed` and is never passed on.
 */
export async function getJson<S extends z.ZodType>(
  provider: string,
  url: string,
  schema: S,
  options: HttpJsonOptions,
): Promise<z.infer<S>> {
  return requestJson(provider, url, { method: "GET" }, schema, options);
}

/**
 * POSTs `body` as JSON (JSON-RPC endpoints) and validates the answer like `getJson`. A POST is
 * only retried by the caller's policy, so it must be side-effect free (read-only RPC methods).
 */
export async function postJson<S extends z.ZodType>(
  provider: string,
  url: string,
  body: unknown,
  schema: S,
  options: HttpJsonOptions,
): Promise<z.infer<S>> {
  return requestJson(provider, url, { method: "POST", body: JSON.stringify(body), contentType: "application/json" }, schema, options);
}

/**
 * GETs a text document (FRED's CSV) with the same failure kinds, Retry-After reading and body cap
 * as getJson; the caller parses it.
 */
export async function getText(provider: string, url: string, accept: string, options: HttpJsonOptions): Promise<string> {
  return requestText(provider, url, { method: "GET", accept }, options);
}

interface RequestShape {
  readonly method: "GET" | "POST";
  readonly accept: string;
  readonly body?: string;
  readonly contentType?: string;
}

async function requestJson<S extends z.ZodType>(
  provider: string,
  url: string,
  request: Omit<RequestShape, "accept">,
  schema: S,
  options: HttpJsonOptions,
): Promise<z.infer<S>> {
  const text = await requestText(provider, url, { ...request, accept: "application/json" }, options);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new ProviderError(provider, "malformed", "response is not JSON");
  }
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    throw new ProviderError(provider, "malformed", `payload does not match the documented shape: ${parsed.error.issues[0]?.message ?? ""}`);
  }
  return parsed.data;
}

/** One request's body as text; every failure is a ProviderError whose kind says whether retrying can help. */
async function requestText(provider: string, url: string, request: RequestShape, options: HttpJsonOptions): Promise<string> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: request.method,
      headers: { accept: request.accept, ...(request.contentType ? { "content-type": request.contentType } : {}), ...options.headers },
      ...(request.body !== undefined ? { body: request.body } : {}),
      signal: AbortSignal.timeout(options.timeoutMs),
      redirect: "error",
    });
  } catch (err) {
    const name = err instanceof Error ? err.name : "";
    if (name === "TimeoutError" || name === "AbortError") {
      throw new ProviderError(provider, "timeout", `no answer within ${options.timeoutMs} ms`);
    }
    throw new ProviderError(provider, "network", err instanceof Error ? err.message : "request failed");
  }
  if (asksToWait(response.status)) {
    await response.body?.cancel();
    throw new ProviderError(provider, "rate_limited", `HTTP ${response.status}`, response.status, retryAfterMs(response.headers.get("retry-after")));
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw new ProviderError(provider, "http", `HTTP ${response.status}`, response.status);
  }
  // Refused while it streams in, before it is buffered whole.
  return readBodyCapped(provider, response, options.maxBodyBytes ?? MAX_BODY_BYTES, options.timeoutMs);
}
