import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { getJson, MAX_BODY_BYTES } from "../../../../src/feeds/live/http-json.js";
import { FakeProviderServer } from "./fake-provider-server.js";

describe("a provider's answer is read only up to a size", () => {
  let fake: FakeProviderServer;
  let endless: Server;
  let endlessSent = 0;
  beforeAll(async () => {
    fake = await FakeProviderServer.start();
    // A server that never stops sending one JSON array: only a cap on what is read ends it.
    endless = createServer((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.write("[");
      const chunk = "1,".repeat(32_768);
      const send = (): void => {
        while (!res.destroyed && res.write(chunk)) endlessSent += chunk.length;
        if (!res.destroyed) res.once("drain", send);
      };
      send();
    });
    await new Promise<void>((resolve) => endless.listen(0, "127.0.0.1", resolve));
  });
  afterAll(async () => {
    await fake.close();
    endless.closeAllConnections();
    await new Promise<void>((resolve) => endless.close(() => resolve()));
  });

  it("refuses a body past the cap as malformed, and reads one within it", async () => {
    const schema = z.array(z.number());
    fake.script({ body: Array.from({ length: 1000 }, () => 1) });
    await expect(getJson("p", `${fake.url}/x`, schema, { timeoutMs: 5000, maxBodyBytes: 1000 })).rejects.toMatchObject({ kind: "malformed", message: expect.stringMatching(/over 1000 bytes/) });
    fake.script({ body: [1, 2, 3] });
    expect(await getJson("p", `${fake.url}/x`, schema, { timeoutMs: 5000, maxBodyBytes: 1000 })).toEqual([1, 2, 3]);
  });

  it("stops reading an endless answer at the default cap, long before its time limit", async () => {
    const url = `http://127.0.0.1:${(endless.address() as AddressInfo).port}/all`;
    const err = await getJson("p", url, z.array(z.number()), { timeoutMs: 60_000 }).catch((e: unknown) => e);
    expect(err).toMatchObject({ kind: "malformed", message: expect.stringContaining(`response body over ${MAX_BODY_BYTES} bytes`) });
    // Not a timeout: the reader gave up once past the cap (the server had sent little more).
    expect(endlessSent).toBeLessThan(4 * MAX_BODY_BYTES);
  });
});
