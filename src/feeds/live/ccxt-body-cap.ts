import type { Readable, Transform } from "node:stream";
import { createBrotliDecompress, createGunzip, createInflate } from "node:zlib";
import ccxt from "ccxt";
import { MAX_BODY_BYTES } from "./http-json.js";

/** An undici.request answer as ccxt hands it to `undiciBody`: the status, headers and body stream. */
interface UndiciAnswer {
  readonly statusCode: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: Readable;
}

/** What this module sets on a ccxt exchange: its undici Agent's options, its request headers, and how it reads answers. */
export interface DispatcherOptionsHook {
  getDispatcherOptions(isPlainAgent?: boolean): Record<string, unknown>;
  headers: Record<string, string>;
  /** ccxt's own time limit per request (ms); ccxt applies it only until the headers arrive. */
  timeout: number;
  undiciBody(res: unknown, binary?: boolean): Promise<unknown>;
}

/** An answer whose body, as delivered or once inflated, is past the cap: read as `malformed` (ccxt-error.ts). */
export class BodyOverCapError extends Error {
  constructor(readonly maxBytes: number) {
    super(`response body over the size cap of ${maxBytes} bytes`);
    this.name = "BodyOverCapError";
  }
}

const INFLATERS: Readonly<Record<string, () => Transform>> = {
  gzip: createGunzip,
  "x-gzip": createGunzip,
  deflate: createInflate,
  br: createBrotliDecompress,
};

/**
 * Caps every answer `exchange` reads, in size and in time, as http-json.ts caps every other
 * provider's. ccxt reads an exchange's body whole, so a proxy's error page or a misbehaving
 * endpoint could make the service buffer any size, or hold a poll for as long as it drips bytes.
 * Call it before the first request: ccxt builds its undici Agent once, on that request.
 *
 * - Size. undici refuses a body past `maxResponseSize` while it streams in (error code
 *   UND_ERR_RES_EXCEEDED_MAX_SIZE, read as `malformed`). That counts the bytes on the wire, and
 *   ccxt inflates gzip, deflate or br without a limit: so the exchange is asked for its answers
 *   uncompressed, and an answer compressed all the same (a server or proxy that ignores the ask)
 *   is inflated here with the cap counting the inflated bytes. A 16 MB gzip body inflates to
 *   gigabytes, which ccxt's own reader would have held in memory.
 * - Time. ccxt's `timeout` aborts a request only until its headers arrive; the body is then read
 *   with no limit of its own but undici's 300 s between two bytes. An endpoint sending a byte a
 *   minute held a single-flight poll (and every poll that joined it) for good, with no failure
 *   for the breaker to see. Here the body must be read within `timeout` of its headers, or it is
 *   cut off as ccxt's RequestTimeout (a `timeout`, retried as one): a whole request ends within
 *   twice ccxt's timeout.
 */
export function capCcxtBodies<E extends DispatcherOptionsHook>(exchange: E, maxBytes: number = MAX_BODY_BYTES): E {
  // A ccxt upgrade that drops a hook must fail at start, not silently lift a cap.
  for (const hook of ["getDispatcherOptions", "undiciBody"] as const) {
    if (typeof exchange[hook] !== "function") throw new Error(`ccxt no longer exposes ${hook}; the body caps cannot be set`);
  }
  const ownOptions = exchange.getDispatcherOptions.bind(exchange);
  exchange.getDispatcherOptions = (isPlainAgent?: boolean) => ({ ...ownOptions(isPlainAgent), maxResponseSize: maxBytes });
  exchange.headers = { ...exchange.headers, "Accept-Encoding": "identity" };

  const ownBody = exchange.undiciBody.bind(exchange);
  exchange.undiciBody = async (res, binary) => {
    const answer = res as UndiciAnswer;
    cutOffAt(answer.body, exchange.timeout);
    const encoding = String(answer.headers["content-encoding"] ?? "").trim().toLowerCase();
    const inflater = answer.statusCode === 204 || answer.statusCode === 304 ? undefined : INFLATERS[encoding];
    if (inflater === undefined) return ownBody(res, binary);
    const inflated = await inflateCapped(answer.body, inflater(), maxBytes);
    return binary === true ? inflated : inflated.toString("utf8");
  };
  return exchange;
}

/** Destroys `body` (so its reader rejects, as a timeout) if it has not been read to its end within `timeoutMs`. */
function cutOffAt(body: Readable, timeoutMs: number): void {
  const timer = setTimeout(() => body.destroy(new ccxt.RequestTimeout(`answer body not read within ${timeoutMs} ms`)), timeoutMs);
  // Never holds the process open on its own, and ends with the body however it ends.
  timer.unref();
  body.once("close", () => clearTimeout(timer));
}

/** Inflates `body` through `inflater`, refusing once the inflated bytes pass `maxBytes`. */
async function inflateCapped(body: Readable, inflater: Transform, maxBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  // A failure of the body (the time limit above, a reset) ends the inflater with it.
  body.once("error", (err) => inflater.destroy(err));
  body.pipe(inflater);
  try {
    for await (const chunk of inflater) {
      const bytes = chunk as Buffer;
      total += bytes.length;
      if (total > maxBytes) throw new BodyOverCapError(maxBytes);
      chunks.push(bytes);
    }
  } finally {
    // Stops reading the rest: an exchange's socket is worth less than the memory.
    if (total > maxBytes || !body.readableEnded) body.destroy();
  }
  return Buffer.concat(chunks);
}
