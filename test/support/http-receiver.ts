import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";

export interface Received {
  readonly path: string;
  readonly headers: IncomingMessage["headers"];
  readonly body: string;
}

export interface RunningReceiver {
  readonly url: string;
  readonly received: Received[];
  stop(): Promise<void>;
}

/**
 * A plain HTTP endpoint on loopback that records every POST (an incoming-webhook channel). It
 * answers `status`, or each of `statuses` in turn first (a channel that fails for a while).
 */
export async function startReceiver(status = 200, statuses: readonly number[] = []): Promise<RunningReceiver> {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (d: Buffer) => (body += d.toString()));
    req.on("end", () => {
      received.push({ path: req.url ?? "/", headers: req.headers, body });
      res.writeHead(statuses[received.length - 1] ?? status, { "content-type": "text/plain" }).end("ok");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
