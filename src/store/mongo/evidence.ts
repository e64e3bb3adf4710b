import { MongoServerError, type Collection, type Db } from "mongodb";
import type { EvidenceDocument, EvidenceRepository } from "../ports/evidence.js";

interface EvidenceDoc {
  _id: string;
  at: number;
  /** JSON text: nothing queries inside it, and FerretDB decodes one string faster than a tree. */
  body: string;
}

const DUPLICATE_KEY = 11000;

export class MongoEvidence implements EvidenceRepository {
  private readonly docs: Collection<EvidenceDoc>;

  constructor(db: Db) {
    this.docs = db.collection<EvidenceDoc>("evidence");
  }

  async ensureIndexes(): Promise<void> {
    // Read by _id only.
  }

  async put(doc: EvidenceDocument): Promise<void> {
    try {
      // Matches only a stored document that is not newer; with none, the upsert inserts. A newer
      // stored one makes the upsert collide on _id: it stays, as it should.
      await this.docs.updateOne({ _id: doc.key, at: { $lte: doc.at } }, { $set: { at: doc.at, body: JSON.stringify(doc.body) } }, { upsert: true });
    } catch (err) {
      if (err instanceof MongoServerError && err.code === DUPLICATE_KEY) return;
      throw err;
    }
  }

  async get(key: string): Promise<EvidenceDocument | null> {
    const doc = await this.docs.findOne({ _id: key });
    return doc ? { key: doc._id, at: doc.at, body: JSON.parse(doc.body) as unknown } : null;
  }
}
