import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startService, type RunningService } from "../../support/service.js";

/**
 * Audit 2026-11-26, finding 5: per-IP limits count an IPv6 client by its /64 (one host's usual
 * share) and an IPv4-mapped address as its IPv4 address. The client address comes from
 * X-Forwarded-For, trusted from loopback as behind a reverse proxy.
 */

let svc: RunningService;

const generate = (ip: string) =>
  fetch(`${svc.url}/v1/keys/generate`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-forwarded-for": ip },
    body: JSON.stringify({ name: "probe", email: "probe@example.org" }),
  });

beforeAll(async () => {
  svc = await startService({ TRUST_PROXY: "loopback" }, { capabilities: [] });
});

afterAll(async () => {
  await svc.stop();
});

describe("per-IP limits of key generation", () => {
  it("give all the addresses of one IPv6 /64 the five generations of one client", async () => {
    const statuses: number[] = [];
    for (let i = 1; i <= 6; i++) statuses.push((await generate(`2001:db8:aa:bb::${i.toString(16)}:${(i * 7919).toString(16)}`)).status);
    expect(statuses).toEqual([201, 201, 201, 201, 201, 429]);
    // The next /64 is another client.
    expect((await generate("2001:db8:aa:bc::1")).status).toBe(201);
  });

  it("count an IPv4 client alike whether it arrives as IPv4 or IPv4-mapped IPv6", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await generate(i % 2 === 0 ? "198.51.100.23" : "::ffff:198.51.100.23")).status);
    expect(statuses).toEqual([201, 201, 201, 201, 201, 429]);
  });
});
