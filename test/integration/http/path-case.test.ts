import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { marketDataCapability } from "../../../src/composition/capabilities/market-data.js";
import { webhooksCapability } from "../../../src/composition/capabilities/webhooks.js";
import { createKey, startService, type RunningService } from "../../support/service.js";

/**
 * Audit 2026-11-26, finding 9: Express routes paths in any letter case, so the 405 for a known
 * path with another method (DECISIONS 2) and the literal-beats-template rule hold in any case too.
 */

let svc: RunningService;
let key: string;

beforeAll(async () => {
  svc = await startService({}, { capabilities: [marketDataCapability, webhooksCapability] });
  key = await createKey(svc, "basic");
});

afterAll(async () => {
  await svc.stop();
});

const call = (method: string, path: string) => fetch(svc.url + path, { method, headers: { "x-api-key": key } });

describe("letter case of a path", () => {
  it("a known path in other letter case with another method is a 405 with its Allow header", async () => {
    for (const path of ["/v1/keys/rotate", "/V1/KEYS/ROTATE", "/v1/Keys/Rotate/"]) {
      const res = await call("PUT", path);
      expect({ path, status: res.status, allow: res.headers.get("allow") }).toEqual({ path, status: 405, allow: "POST" });
      expect(await res.json()).toEqual({ detail: "Method Not Allowed" });
    }
  });

  it("a literal path in other letter case is not taken for a template's parameter", async () => {
    for (const path of ["/v1/webhooks/test", "/v1/webhooks/TEST"]) {
      const res = await call("DELETE", path);
      expect({ path, status: res.status, allow: res.headers.get("allow") }).toEqual({ path, status: 405, allow: "POST" });
    }
  });

  it("an unknown path stays a 404 in any case", async () => {
    expect((await call("PUT", "/V1/NO/SUCH")).status).toBe(404);
  });
});
