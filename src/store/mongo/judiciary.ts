import type { Collection, Db } from "mongodb";
import { isDuplicateKeyError } from "./database.js";
import type { StoredVerdict, VerdictPruning, VerdictRepository } from "../ports/verdicts.js";
import type { CouncilSessionRepository } from "../ports/council-sessions.js";
import type { CouncilAsset, CouncilSession } from "../../domain/council/council-types.js";
import { judiciaryVerdictFromJson } from "../../domain/judiciary/verdict-json.js";
import { councilSessionFromJson } from "../../domain/council/session-json.js";
import type { Asset } from "../../domain/signals/signal-keys.js";

interface VerdictDoc {
  _id: string;
  asset: Asset;
  at: number;
  /** Kept as a JSON string: the body's shape is the domain's, and a string round-trips it exactly. */
  body: string;
}

interface SessionDoc {
  _id: string;
  asset: CouncilAsset;
  at: number;
  mode: CouncilSession["mode"];
  body: string;
}

const NO_LIMIT = Number.MAX_SAFE_INTEGER;

/** Insert-once: a duplicate id is the same evaluation written again by a retried turn. */
async function insertOnce<T extends { _id: string }>(c: Collection<T>, doc: T): Promise<void> {
  try {
    await c.insertOne(doc as Parameters<Collection<T>["insertOne"]>[0]);
  } catch (err) {
    if (!isDuplicateKeyError(err)) throw err;
  }
}

export class MongoVerdicts implements VerdictRepository, VerdictPruning {
  private readonly docs: Collection<VerdictDoc>;

  constructor(db: Db) {
    this.docs = db.collection<VerdictDoc>("verdicts");
  }

  async ensureIndexes(): Promise<void> {
    await this.docs.createIndex({ asset: 1, at: -1 });
  }

  async save(entry: StoredVerdict): Promise<void> {
    await insertOnce(this.docs, { _id: entry.id, asset: entry.verdict.asset, at: entry.at, body: JSON.stringify(entry.verdict) });
  }

  async latest(asset: Asset, at = NO_LIMIT): Promise<StoredVerdict | null> {
    const doc = await this.docs.find({ asset, at: { $lte: at } }).sort({ at: -1 }).limit(1).next();
    return doc ? { id: doc._id, at: doc.at, verdict: judiciaryVerdictFromJson(JSON.parse(doc.body)) } : null;
  }

  async byId(id: string): Promise<StoredVerdict | null> {
    const doc = await this.docs.findOne({ _id: id });
    return doc ? { id: doc._id, at: doc.at, verdict: judiciaryVerdictFromJson(JSON.parse(doc.body)) } : null;
  }

  async between(asset: Asset, after: number, upTo: number): Promise<StoredVerdict[]> {
    const docs = await this.docs.find({ asset, at: { $gt: after, $lte: upTo } }).sort({ at: 1 }).toArray();
    return docs.map((doc) => ({ id: doc._id, at: doc.at, verdict: judiciaryVerdictFromJson(JSON.parse(doc.body)) }));
  }

  async pruneBefore(asset: Asset, before: number): Promise<number> {
    return (await this.docs.deleteMany({ asset, at: { $lt: before } })).deletedCount;
  }
}

export class MongoCouncilSessions implements CouncilSessionRepository {
  private readonly docs: Collection<SessionDoc>;

  constructor(db: Db) {
    this.docs = db.collection<SessionDoc>("council_sessions");
  }

  async ensureIndexes(): Promise<void> {
    await this.docs.createIndex({ asset: 1, at: -1 });
    await this.docs.createIndex({ asset: 1, mode: 1, at: -1 });
  }

  async save(session: CouncilSession): Promise<void> {
    await insertOnce(this.docs, { _id: session.id, asset: session.asset, at: session.at, mode: session.mode, body: JSON.stringify(session) });
  }

  async latest(asset: CouncilAsset, at = NO_LIMIT): Promise<CouncilSession | null> {
    const doc = await this.docs.find({ asset, at: { $lte: at } }).sort({ at: -1 }).limit(1).next();
    return doc ? councilSessionFromJson(JSON.parse(doc.body)) : null;
  }

  async latestWithModel(asset: CouncilAsset, at = NO_LIMIT): Promise<CouncilSession | null> {
    const doc = await this.docs.find({ asset, mode: "council", at: { $lte: at } }).sort({ at: -1 }).limit(1).next();
    return doc ? councilSessionFromJson(JSON.parse(doc.body)) : null;
  }

  async byId(id: string): Promise<CouncilSession | null> {
    const doc = await this.docs.findOne({ _id: id });
    return doc ? councilSessionFromJson(JSON.parse(doc.body)) : null;
  }

  async modelSessionsBetween(asset: CouncilAsset, from: number, to: number): Promise<CouncilSession[]> {
    const docs = await this.docs.find({ asset, mode: "council", at: { $gt: from, $lte: to } }).sort({ at: 1 }).toArray();
    return docs.map((d) => councilSessionFromJson(JSON.parse(d.body)));
  }
}
