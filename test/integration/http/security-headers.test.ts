import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startService, type RunningService } from "../../support/service.js";

/** The Content-Security-Policy as a map of directive → its sources. */
function directives(header: string | null): Map<string, string> {
  return new Map(
    (header ?? "")
      .split(";")
      .map((d) => d.trim())
      .filter((d) => d !== "")
      .map((d) => [d.split(" ")[0] ?? "", d.split(" ").slice(1).join(" ")] as const),
  );
}

describe("security headers of the pages and the API", () => {
  let plain: RunningService;
  let secure: RunningService;
  beforeAll(async () => {
    plain = await startService({ PUBLIC_BASE_URL: "http://dashboard.lan:8080" });
    secure = await startService({ PUBLIC_BASE_URL: "https://api.example.com" });
  });
  afterAll(async () => {
    await plain.stop();
    await secure.stop();
  });

  it("a service published over plain http does not ask browsers to fetch its assets over https", async () => {
    // With upgrade-insecure-requests, a browser on http://dashboard.lan:8080/ asked for
    // https://dashboard.lan:8080/assets/app.js, which failed: the dashboard stayed blank.
    const csp = directives((await fetch(`${plain.url}/`)).headers.get("content-security-policy"));
    expect(csp.has("upgrade-insecure-requests")).toBe(false);
    expect(csp.get("script-src")).toBe("'self'");
    const secureCsp = directives((await fetch(`${secure.url}/`)).headers.get("content-security-policy"));
    expect(secureCsp.has("upgrade-insecure-requests")).toBe(true);
  });

  it("allows no inline style, no font or style from elsewhere, and no framing", async () => {
    for (const path of ["/", "/docs", "/v1/health"]) {
      const res = await fetch(`${plain.url}${path}`);
      const csp = directives(res.headers.get("content-security-policy"));
      expect([path, csp.get("style-src"), csp.get("font-src"), csp.get("frame-ancestors")]).toEqual([path, "'self'", "'self'", "'none'"]);
      expect(res.headers.get("x-frame-options")).toBe("DENY");
    }
  });
});
