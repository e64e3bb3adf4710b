import { z } from "zod";
import { postJson } from "./http-json.js";
import { ProviderError } from "./provider-error.js";

/** JSON-RPC 2.0 error object (Solana nodes add `data` to some). */
const errorObject = z.object({ code: z.number().int(), message: z.string(), data: z.unknown().optional() });
const id = z.union([z.number(), z.string(), z.null()]);
/** Error first: a result-less error answer must not pass as a success with no result. */
const envelope = z.union([
  z.object({ jsonrpc: z.literal("2.0"), id, error: errorObject }),
  z.object({ jsonrpc: z.literal("2.0"), id, result: z.unknown().refine((r) => r !== undefined, "no result") }),
]);

/**
 * A JSON-RPC error answer. Only server-side conditions are worth a retry: the implementation
 * range −32000..−32099 (Solana: node unhealthy or behind, -32005) and internal error −32603;
 * invalid request, unknown method or bad params will fail again the same way.
 */
export class JsonRpcError extends ProviderError {
  constructor(
    provider: string,
    readonly code: number,
    message: string,
  ) {
    super(provider, "rpc", `JSON-RPC error ${code}: ${message}`);
    this.name = "JsonRpcError";
  }

  override get retryable(): boolean {
    return this.code === -32603 || (this.code <= -32000 && this.code >= -32099);
  }
}

export interface JsonRpcCall<S extends z.ZodType> {
  readonly provider: string;
  readonly url: string;
  readonly method: string;
  readonly params: readonly unknown[];
  /** Shape of `result`; a success envelope whose result does not match it is malformed. */
  readonly result: S;
  readonly timeoutMs: number;
}

/**
 * One JSON-RPC 2.0 call over HTTP POST. The envelope is validated as either a result or an
 * error object; an error answer becomes a JsonRpcError (some gateways send their rate limit as
 * code 429 inside a 200, which is treated like an HTTP 429).
 */
export async function callJsonRpc<S extends z.ZodType>(call: JsonRpcCall<S>): Promise<z.infer<S>> {
  const body = await postJson(call.provider, call.url, { jsonrpc: "2.0", id: 1, method: call.method, params: call.params }, envelope, {
    timeoutMs: call.timeoutMs,
  });
  if ("error" in body) {
    if (body.error.code === 429) throw new ProviderError(call.provider, "rate_limited", `JSON-RPC 429: ${body.error.message}`, 429);
    throw new JsonRpcError(call.provider, body.error.code, body.error.message);
  }
  const result = call.result.safeParse(body.result);
  if (!result.success) {
    throw new ProviderError(call.provider, "malformed", `${call.method} result does not match the documented shape: ${result.error.issues[0]?.message ?? ""}`);
  }
  return result.data;
}
