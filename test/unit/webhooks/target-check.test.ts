import { describe, expect, it } from "vitest";
import { embeddedIPv4, judgeAddress } from "../../../src/webhook-delivery/address-policy.js";
import { isForbiddenAddress } from "../../support/webhooks/forbidden-address.js";
import { checkWebhookTarget } from "../../../src/webhook-delivery/target-check.js";
import { createWebhookBody } from "../../../src/http/schemas/webhooks.js";

describe("address policy", () => {
  it.each([
    "127.0.0.1",
    "127.255.0.9",
    "10.0.0.1",
    "172.16.5.4",
    "192.168.1.1",
    "169.254.169.254",
    "100.64.0.1",
    "0.0.0.0",
    "::1",
    "[::1]",
    "::",
    "fe80::1",
    "fd00:ec2::254",
    "::ffff:127.0.0.1",
    "::ffff:10.0.0.1",
    "::ffff:7f00:1",
    "::ffff:8.8.8.8",
    "64:ff9b::7f00:1",
    "2002:7f00:1::1",
    "fe80::1%eth0",
    "224.0.0.1",
    "::127.0.0.1",
    "::7f00:1",
    "64:ff9b:1::a9fe:a9fe",
    "fec0::1",
    "3fff::1",
    "5f00::1",
    "2001:0:4136:e378:8000:63bf:3fff:fdd2",
    "192.31.196.1",
    "255.255.255.255",
    "not-an-ip",
  ])("refuses %s", (address) => {
    expect(isForbiddenAddress(address)).toBe(true);
  });

  it.each(["93.184.216.34", "8.8.8.8", "2606:4700:4700::1111", "2a00:1450:4001:80b::200e"])("allows %s", (address) => {
    expect(isForbiddenAddress(address)).toBe(false);
  });
});

describe("embedded IPv4", () => {
  it.each([
    ["::ffff:7f00:1", ["127.0.0.1"]],
    ["::7f00:1", ["127.0.0.1"]],
    ["64:ff9b::a9fe:a9fe", ["169.254.169.254"]],
    ["64:ff9b:1::a9fe:a9fe", ["169.254.169.254"]],
    ["2002:a00:1::1", ["10.0.0.1"]],
    ["2001:0:4136:e378:8000:63bf:3fff:fdd2", ["65.54.227.120", "192.0.2.45"]],
    ["2606:4700:4700::1111", []],
  ])("decodes %s", (address, expected) => {
    expect(embeddedIPv4(address)).toEqual(expected);
  });

  it("names the IPv4 target a translated address carries", () => {
    expect(judgeAddress("64:ff9b:1::a9fe:a9fe")).toEqual({ allowed: false, reason: "64:ff9b:1::a9fe:a9fe is a metadata endpoint" });
    expect(judgeAddress("::7f00:1")).toEqual({
      allowed: false,
      reason: "::7f00:1 is IPv4-compatible (deprecated, RFC 4291) carrying 127.0.0.1 is loopback",
    });
  });

  it("keeps metadata refused even when private targets are allowed", () => {
    expect(judgeAddress("::ffff:a9fe:a9fe", { allowPrivateTargets: true }).allowed).toBe(false);
    expect(judgeAddress("127.0.0.1", { allowPrivateTargets: true }).allowed).toBe(true);
  });
});

describe("registration target check", () => {
  const resolveTo =
    (...addresses: string[]) =>
    async () =>
      addresses;
  const strict = { allowPrivateTargets: false };

  it("requires https", async () => {
    expect(await checkWebhookTarget("http://hooks.example.com/x", { ...strict, resolve: resolveTo("8.8.8.8") })).toEqual({
      ok: false,
      reason: "https_required",
    });
  });

  it.each(["https://127.0.0.1/x", "https://10.0.0.1/x", "https://169.254.169.254/latest", "https://[::1]:8443/x"])(
    "refuses the literal address in %s",
    async (url) => {
      expect(await checkWebhookTarget(url, strict)).toEqual({ ok: false, reason: "forbidden_address" });
    },
  );

  it("refuses a name when any of its addresses is private", async () => {
    const resolve = resolveTo("8.8.8.8", "192.168.0.10");
    expect(await checkWebhookTarget("https://mixed.example.com/x", { ...strict, resolve })).toEqual({
      ok: false,
      reason: "host_not_public",
    });
  });

  it("refuses localhost through real DNS and accepts a public name", async () => {
    expect(await checkWebhookTarget("https://localhost/x", strict)).toMatchObject({ ok: false });
    expect(await checkWebhookTarget("https://hooks.example.com/x", { ...strict, resolve: resolveTo("8.8.8.8") })).toEqual({
      ok: true,
    });
  });

  it("reports names that do not resolve as it reports private names (no oracle of internal names)", async () => {
    const resolve = async (): Promise<string[]> => {
      throw Object.assign(new Error("nope"), { code: "ENOTFOUND" });
    };
    expect(await checkWebhookTarget("https://nowhere.invalid/x", { ...strict, resolve })).toEqual({
      ok: false,
      reason: "host_not_public",
    });
  });
});

describe("subscribe body schema", () => {
  it("accepts https and a non-empty subset of the event types", () => {
    expect(createWebhookBody.safeParse({ url: "https://a.example.com/h", events: ["verdict.new", "macro.alert"] }).success).toBe(true);
  });

  it.each([
    { url: "http://a.example.com/h", events: ["verdict.new"] },
    { url: "https://a.example.com/h", events: [] },
    { url: "https://a.example.com/h", events: ["webhook.test"] },
    { url: "not a url", events: ["verdict.new"] },
    { url: "https://a.example.com/h", events: ["verdict.new"], extra: 1 },
  ])("rejects %j", (body) => {
    expect(createWebhookBody.safeParse(body).success).toBe(false);
  });
});
