import { describe, expect, it } from "vitest";
import { openStore } from "../../src/store/open-store.js";
import { databaseName } from "../../src/store/mongo/database.js";
import { freshStoreUrl } from "../support/service.js";

describe("MongoDB connection strings", () => {
  it("names the database from the path of any connection string, a replica set's seed list included", () => {
    expect(databaseName("mongodb://admin:S3cret@db1:27017,db2:27017,db3:27017/market_intel_prod?replicaSet=rs0")).toBe("market_intel_prod");
    expect(databaseName("mongodb+srv://u:p%2Fq@cluster0.example.net/analytics?retryWrites=true")).toBe("analytics");
    expect(databaseName("mongodb://db1:27017,db2:27017/?replicaSet=rs0")).toBe("market_intel");
    expect(databaseName("mongodb://localhost")).toBe("market_intel");
  });

  it("opens the store through a seed list of hosts, on the database the path names", async () => {
    const single = freshStoreUrl("mongodb", "seedlist");
    const u = new URL(single);
    // The same server twice: a seed list, which new URL() refuses.
    const seeds = `mongodb://${u.host},${u.host}${u.pathname}${u.search}`;
    const viaSeeds = await openStore(seeds);
    try {
      expect(await viaSeeds.newsletter.subscribe("seed@example.com", null, "2026-11-29T00:00:00.000Z")).toBe(true);
    } finally {
      await viaSeeds.close();
    }
    const viaOne = await openStore(single);
    try {
      expect((await viaOne.newsletter.get("seed@example.com"))?.email).toBe("seed@example.com");
    } finally {
      await viaOne.close();
    }
  });
});
