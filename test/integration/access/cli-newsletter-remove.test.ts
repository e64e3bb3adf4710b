import { describe, expect, it } from "vitest";
import { openStore } from "../../../src/store/open-store.js";
import { runCli } from "../../support/cli.js";
import { freshStoreUrl, type StoreKind } from "../../support/service.js";

/** An operator acts on an "unsubscribe" reply or an erasure request. */
describe.each<StoreKind>(["sqlite", "mongodb"])("newsletter remove on %s", (kind) => {
  it("forgets the subscriber as the route stored it, and says so when there is nobody to forget", async () => {
    const storeUrl = freshStoreUrl(kind, "news-remove");
    const store = await openStore(storeUrl);
    await store.newsletter.subscribe("ann.reader@example.com", "Ann", "2026-11-29T09:00:00.000Z");
    await store.newsletter.subscribe("bob@example.com", null, "2026-11-29T09:00:00.000Z");
    await store.close();

    // As written in a reply: other letter case, stray spaces.
    const removed = await runCli(["newsletter", "remove", "  Ann.Reader@Example.com "], { STORE_URL: storeUrl });
    expect([removed.code, JSON.parse(removed.stdout)], removed.stderr).toEqual([0, { removed: true }]);
    const again = await runCli(["newsletter", "remove", "ann.reader@example.com"], { STORE_URL: storeUrl });
    expect([again.code, JSON.parse(again.stdout)]).toEqual([1, { removed: false }]);
    expect(again.stderr).toContain("no such subscriber");
    expect((await runCli(["newsletter", "remove"], { STORE_URL: storeUrl })).code).toBe(2);

    const after = await openStore(storeUrl);
    try {
      expect(await after.newsletter.get("ann.reader@example.com")).toBeNull();
      expect((await after.newsletter.get("bob@example.com"))?.email).toBe("bob@example.com");
    } finally {
      await after.close();
    }
  }, 60_000);
});
