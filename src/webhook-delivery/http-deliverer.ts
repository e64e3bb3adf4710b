import type { Agent } from "node:https";
import fetch from "node-fetch";
import type { DeliveryRequest } from "../domain/webhooks/delivery-request.js";
import { DELIVERY_TIMEOUT_MS, MAX_RESPONSE_BYTES } from "../domain/webhooks/limits.js";
import { outcomeForStatus, type DeliveryOutcome } from "../domain/webhooks/outcome.js";
import { classifyDeliveryError } from "./classify-error.js";

/** One delivery attempt; never throws, every result is an outcome. */
export type Deliver = (request: DeliveryRequest) => Promise<DeliveryOutcome>;

export interface HttpDelivererOptions {
  /** From createDeliveryAgent: the SSRF filter lives there. */
  readonly agent: Agent;
  readonly timeoutMs?: number;
  readonly maxResponseBytes?: number;
  readonly userAgent?: string;
}

/** Reads at most `limit` bytes so a hostile receiver cannot make us buffer without end. */
async function drainCapped(body: NodeJS.ReadableStream | null, limit: number): Promise<void> {
  if (body === null) return;
  let total = 0;
  for await (const chunk of body) {
    total += typeof chunk === "string" ? Buffer.byteLength(chunk) : chunk.length;
    // Leaving the loop destroys the stream (and with it the socket): we stop reading here.
    if (total >= limit) break;
  }
}

/**
 * HTTPS POST of a signed delivery (DECISIONS 5): https only, redirects not followed (a 3xx is
 * a failure), success = a 2xx status within the timeout, response body read to at most 64 KiB.
 */
export function createHttpDeliverer(options: HttpDelivererOptions): Deliver {
  const timeoutMs = options.timeoutMs ?? DELIVERY_TIMEOUT_MS;
  const maxBytes = options.maxResponseBytes ?? MAX_RESPONSE_BYTES;
  const userAgent = options.userAgent ?? "market-intel-webhooks/1";

  return async (request) => {
    const started = performance.now();
    const elapsed = (): number => Math.round(performance.now() - started);
    if (!request.url.startsWith("https://")) {
      return { kind: "failure", statusCode: null, error: "target_refused", durationMs: 0 };
    }
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    try {
      const response = await fetch(request.url, {
        method: "POST",
        headers: { ...request.headers, "user-agent": userAgent },
        body: request.body,
        agent: options.agent,
        redirect: "manual",
        compress: false,
        signal: controller.signal,
      });
      const outcome = outcomeForStatus(response.status, elapsed());
      // The status decided the outcome; a body that stalls or breaks afterwards changes nothing.
      await drainCapped(response.body, maxBytes).catch(() => undefined);
      return outcome;
    } catch (error) {
      return { kind: "failure", statusCode: null, error: classifyDeliveryError(error), durationMs: elapsed() };
    } finally {
      clearTimeout(timer);
    }
  };
}
