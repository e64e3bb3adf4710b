import type { IncomingHttpHeaders } from "node:http";
import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import type { TestPki } from "./tls.js";

export interface ReceivedDelivery {
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

/** How the receiver answers one request. */
export interface Reply {
  readonly status: number;
  readonly delayMs?: number;
  readonly headers?: Record<string, string>;
  /** Response body size in bytes (filled with "x"). */
  readonly bodyBytes?: number;
  /** Send the body but never end the response (a receiver that stalls us). */
  readonly neverEnd?: boolean;
}

export type Responder = (request: ReceivedDelivery, index: number) => Reply;

export interface HttpsReceiver {
  readonly port: number;
  readonly url: (path?: string) => string;
  readonly received: ReceivedDelivery[];
  respond: Responder;
  stop(): Promise<void>;
}

/** A real HTTPS webhook receiver on 127.0.0.1 that records raw bodies and headers. */
export async function startHttpsReceiver(pki: TestPki, respond: Responder = () => ({ status: 200 })): Promise<HttpsReceiver> {
  const received: ReceivedDelivery[] = [];
  const receiver: { respond: Responder } = { respond };
  const server: Server = createServer({ key: pki.key, cert: pki.cert }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const delivery = { path: req.url ?? "/", headers: req.headers, body: Buffer.concat(chunks).toString("utf8") };
      received.push(delivery);
      const reply = receiver.respond(delivery, received.length - 1);
      const send = (): void => {
        if (res.destroyed) return;
        res.writeHead(reply.status, { "content-type": "text/plain", ...reply.headers });
        const body = reply.bodyBytes === undefined ? "ok" : Buffer.alloc(reply.bodyBytes, "x");
        if (reply.neverEnd === true) res.write(body);
        else res.end(body);
      };
      if (reply.delayMs === undefined) send();
      else setTimeout(send, reply.delayMs).unref();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    url: (path = "/hook") => `https://127.0.0.1:${port}${path}`,
    received,
    get respond() {
      return receiver.respond;
    },
    set respond(next: Responder) {
      receiver.respond = next;
    },
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
