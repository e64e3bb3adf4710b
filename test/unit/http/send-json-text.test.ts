import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sendJsonText } from "../../../src/http/router.js";

/** A cached answer's text with characters past ASCII, whose byte length is not its length. */
const TEXT = JSON.stringify({ ruling: "HOLD", note: "Zürich – 0.62 ≥ 0.6", cached: true, cache_ttl_seconds: 42 });

describe("sendJsonText writes what Express's res.type('application/json').send(text) writes", () => {
  let url = "";
  let close = (): void => undefined;
  beforeAll(async () => {
    const app = express();
    app.set("etag", false);
    app.get("/express/:status", (req, res) => void res.status(Number(req.params.status)).type("application/json").send(TEXT));
    app.get("/ours/:status", (req, res) => sendJsonText(req, res, Number(req.params.status), TEXT));
    const server = app.listen(0, "127.0.0.1");
    await new Promise<void>((resolve) => server.once("listening", () => resolve()));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    close = () => server.close();
  });
  afterAll(() => close());

  const answer = async (path: string, method: string, condition: Record<string, string> = { "if-modified-since": new Date().toUTCString() }) => {
    const res = await fetch(`${url}${path}`, { method, headers: condition });
    return { status: res.status, type: res.headers.get("content-type"), length: res.headers.get("content-length"), body: await res.text() };
  };

  it.each([
    ["GET", 200],
    ["HEAD", 200],
    ["GET", 201],
  ])("%s with status %i: same status, headers and bytes, a conditional request included", async (method, status) => {
    const ours = await answer(`/ours/${status}`, method);
    expect(ours).toEqual(await answer(`/express/${status}`, method));
    expect(ours.length).toBe(String(Buffer.byteLength(TEXT)));
    expect(ours.body).toBe(method === "HEAD" ? "" : TEXT);
  });

  it.each([
    ["GET", { "if-none-match": "*" }],
    ["HEAD", { "if-none-match": "*" }],
    ["GET", { "if-none-match": '"v1"', "cache-control": "max-age=0" }],
  ] as const)("%s with the conditions %o: answered as Express answers it", async (method, condition) => {
    expect(await answer("/ours/200", method, condition)).toEqual(await answer("/express/200", method, condition));
  });
});
