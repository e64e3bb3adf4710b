import { describe, expect, it } from "vitest";
import { loggablePath } from "../../../src/http/middleware/access-log.js";

const KEY = "svc_pro_AbCdEfGhIjKlMnOpQrSt";

describe("loggablePath", () => {
  it("keeps an ordinary path as it is", () => {
    expect(loggablePath("/v1/verdict/latest")).toBe("/v1/verdict/latest");
    expect(loggablePath("/v1/webhooks/3f2a9c1e-task_sk")).toBe("/v1/webhooks/3f2a9c1e-task_sk");
  });

  it("masks a segment that starts with a key, a webhook secret or a provider key", () => {
    expect(loggablePath(`/v1/keys/${KEY}`)).toBe("/v1/keys/[secret]");
    expect(loggablePath("/v1/webhooks/whsec_abc")).toBe("/v1/webhooks/[secret]");
    expect(loggablePath("/v1/x/sk-proj-abc")).toBe("/v1/x/[secret]");
  });

  it("masks a key anywhere in a segment (a mistyped or over-encoded query string)", () => {
    expect(loggablePath(`/v1/verdict/latest&api_key=${KEY}`)).toBe("/v1/verdict/[secret]");
    expect(loggablePath(`/v1/verdict/latest;${KEY}`)).toBe("/v1/verdict/[secret]");
    expect(loggablePath(`/v1/verdict/latestX${KEY}`)).toBe("/v1/verdict/[secret]");
    expect(loggablePath("/v1/x/token=whsec_abc")).toBe("/v1/x/[secret]");
  });

  it("masks percent-encoded forms, twice-encoded ones included", () => {
    expect(loggablePath(`/v1/verdict/latest%3Fapi_key%3D${KEY}`)).toBe("/v1/verdict/[secret]");
    expect(loggablePath(`/v1/x%20${KEY}`)).toBe("/v1/[secret]");
    expect(loggablePath("/v1/keys/svc%5Fpro%5FAbCdEfGhIjKlMnOpQrSt")).toBe("/v1/keys/[secret]");
    expect(loggablePath("/v1/keys/svc%255Fbasic%255FAbCdEfGhIjKlMnOpQrSt")).toBe("/v1/keys/[secret]");
    expect(loggablePath("/v1/keys/%73vc_free_AbCdEfGhIjKlMnOpQrSt")).toBe("/v1/keys/[secret]");
  });

  it("masks an e-mail address anywhere in a segment, encoded or not", () => {
    expect(loggablePath("/v1/webhooks/dave@example.org")).toBe("/v1/webhooks/[email]");
    expect(loggablePath("/v1/webhooks/x?to=dave%40example.org")).toBe("/v1/webhooks/[email]");
    expect(loggablePath("/v1/webhooks/dave%2540example.org")).toBe("/v1/webhooks/[email]");
  });

  it("leaves out everything after a masked segment: a secret or an address may hold a slash", () => {
    expect(loggablePath("/v1/webhooks/whsec_AbCdEfGh/IjKlMnOp+QrSt=")).toBe("/v1/webhooks/[secret]");
    expect(loggablePath(`/v1/keys/${KEY.slice(0, 12)}/${KEY.slice(12)}/rotate`)).toBe("/v1/keys/[secret]");
    expect(loggablePath("/v1/webhooks/x/dave@example.org/more")).toBe("/v1/webhooks/x/[email]");
  });

  it("masks a query string typed into the path, encoded or not, and what follows it", () => {
    expect(loggablePath("/unsubscribe%3Ftoken%3DAbCdEfGhIjKlMnOpQrStUv")).toBe("/[query]");
    expect(loggablePath("/unsubscribe&token=AbCdEf/GhIj")).toBe("/[query]");
    expect(loggablePath("/v1/x/a=b")).toBe("/v1/x/[query]");
  });

  it("cuts an overlong segment", () => {
    expect(loggablePath(`/v1/${"a".repeat(100)}`)).toBe(`/v1/${"a".repeat(64)}…`);
  });
});
