import type { Collection, Db } from "mongodb";
import type { ProviderHoldRepository } from "../ports/provider-holds.js";

interface HoldDoc {
  _id: string;
  until: number;
}

/** One document per provider; `$max` keeps the later end in one single-document update. */
export class MongoProviderHolds implements ProviderHoldRepository {
  private readonly docs: Collection<HoldDoc>;

  constructor(db: Db) {
    this.docs = db.collection<HoldDoc>("provider_holds");
  }

  async ensureIndexes(): Promise<void> {
    // Read by _id only.
  }

  async until(provider: string): Promise<number> {
    return (await this.docs.findOne({ _id: provider }))?.until ?? 0;
  }

  async extend(provider: string, until: number): Promise<void> {
    await this.docs.updateOne({ _id: provider }, { $max: { until } }, { upsert: true });
  }
}
