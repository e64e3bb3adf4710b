import { describe, expect, it } from "vitest";
import { captureLogger } from "../../support/capture-logger.js";
import { startService } from "../../support/service.js";

describe("readiness when the store stops answering", () => {
  it("answers 503 naming the store, and logs the failure once, by kind, not on every probe", async () => {
    const { logger, lines } = captureLogger("info");
    const svc = await startService({}, { logger });
    try {
      expect((await fetch(`${svc.url}/v1/health/ready`)).status).toBe(200);
      // The real store, gone from under the service (a file system or server lost).
      await svc.service.store.close();
      for (let probe = 0; probe < 3; probe++) {
        const res = await fetch(`${svc.url}/v1/health/ready`);
        expect(res.status).toBe(503);
        expect(await res.json()).toMatchObject({ status: "unavailable", checks: { store: "failed" } });
      }
      const failing = lines.filter((l) => l.msg === "store failing the readiness probe");
      expect(failing).toHaveLength(1);
      expect(failing[0]?.err).toMatchObject({ name: expect.any(String) });
      expect(Object.keys(failing[0]?.err as object)).not.toContain("message");
    } finally {
      await svc.stop().catch(() => undefined);
    }
  });
});
