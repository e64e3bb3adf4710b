import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { keyPrefix } from "../../../src/domain/access/api-key.js";
import { runCli } from "../../support/cli.js";
import { createKey, freshStoreUrl, startService, type RunningService } from "../../support/service.js";
import { waitFor } from "../../support/wait-for.js";

/**
 * An operator revokes a stolen key that the thief has already rotated: the key the customer
 * reported is dead, its successor is not, and the CLI ends the whole lineage.
 */
describe("keys deactivate --lineage", () => {
  const storeUrl = freshStoreUrl("sqlite", "lineage-revoke");
  let svc: RunningService;

  beforeAll(async () => {
    svc = await startService({ STORE_URL: storeUrl });
  });
  afterAll(() => svc.stop());

  const regime = (key: string) => fetch(`${svc.url}/v1/regime/current`, { headers: { "x-api-key": key } });

  it("cuts off the rotated successor of a reported key, and says how when given the dead one", async () => {
    const reported = await createKey(svc, "pro");
    const rotated = await fetch(`${svc.url}/v1/keys/rotate`, { method: "POST", headers: { "x-api-key": reported } });
    expect(rotated.status).toBe(201);
    const thiefKey = ((await rotated.json()) as { api_key: string }).api_key;
    expect((await regime(thiefKey)).status).toBe(200);

    const plain = await runCli(["keys", "deactivate", reported], { STORE_URL: storeUrl });
    expect(plain.code).toBe(1);
    expect(JSON.parse(plain.stdout)).toEqual({ deactivated: false });
    const lineage = /--lineage (\S+)/.exec(plain.stderr)?.[1];
    expect(lineage, plain.stderr).toBeDefined();
    expect(plain.stderr).toContain(`${keyPrefix(thiefKey)}`);

    const list = await runCli(["keys", "list"], { STORE_URL: storeUrl });
    const rows = (JSON.parse(list.stdout) as Array<{ lineage: string; active: boolean }>).filter((r) => r.lineage === lineage);
    expect(rows.map((r) => r.active).sort()).toEqual([false, true]);

    const revoked = await runCli(["keys", "deactivate", "--lineage", lineage ?? ""], { STORE_URL: storeUrl });
    expect(revoked.code, revoked.stderr).toBe(0);
    expect(JSON.parse(revoked.stdout)).toMatchObject({ deactivated: true, lineage, keys: [keyPrefix(thiefKey)] });
    await waitFor(async () => (await regime(thiefKey)).status === 401, 5_000, "the successor to be refused");

    // A retry (the answer was lost) is safe: nothing left to revoke, and it says so with exit 0.
    const again = await runCli(["keys", "deactivate", "--lineage", lineage ?? ""], { STORE_URL: storeUrl });
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ deactivated: false, already: true, keys: [] });
    const unknown = await runCli(["keys", "deactivate", "--lineage", "00000000-0000-4000-8000-000000000000"], { STORE_URL: storeUrl });
    expect(unknown.code).toBe(1);
    expect(JSON.parse(unknown.stdout)).toMatchObject({ deactivated: false, known: false });
  });

  it("deactivates a key once, answers a retry as already done, and a key it does not know as unknown", async () => {
    const key = await createKey(svc, "free");
    const first = await runCli(["keys", "deactivate", key], { STORE_URL: storeUrl });
    expect([first.code, JSON.parse(first.stdout)]).toEqual([0, { deactivated: true }]);
    const retry = await runCli(["keys", "deactivate", key], { STORE_URL: storeUrl });
    expect(retry.code).toBe(0);
    expect(JSON.parse(retry.stdout)).toMatchObject({ deactivated: false, already: true, deactivated_at: expect.any(String) });
    const typo = await runCli(["keys", "deactivate", `svc_free_${"A".repeat(20)}`], { STORE_URL: storeUrl });
    expect(typo.code).toBe(1);
    expect(JSON.parse(typo.stdout)).toEqual({ deactivated: false, known: false });
    expect(typo.stderr).toContain("no such key");
  });

  it("refuses a call that names both a key and a lineage", async () => {
    const key = await createKey(svc, "free");
    const both = await runCli(["keys", "deactivate", key, "--lineage", "x"], { STORE_URL: storeUrl });
    expect(both.code).toBe(2);
    expect(both.stderr).toContain("usage: keys deactivate");
    expect((await regime(key)).status).toBe(200);
  });

  it("refuses a lineage that is not a lineage id with the usage, not a quiet \"nothing deactivated\"", async () => {
    for (const lineage of ["x", "", "key_1234"]) {
      const typo = await runCli(["keys", "deactivate", "--lineage", lineage], { STORE_URL: storeUrl });
      expect(typo.code).toBe(2);
      expect(typo.stderr).toContain("usage: keys deactivate");
      expect(typo.stdout).toBe("");
    }
  });
});
