import type { Collection, Db } from "mongodb";
import type { SprintMark } from "../../domain/ghost/sprints.js";
import { ghostSnapshotFromJson, ghostSnapshotsChecked, type CheckedSnapshots, type GhostLedgerRepository, type GhostSnapshot } from "../ports/ghost-ledger.js";
import { closedTradeFromJson, closedTradesChecked, type CheckedTrades } from "../../domain/ghost/ledger-json.js";
import type { ClosedTrade } from "../../domain/ghost/trade.js";
import type { Asset } from "../../domain/signals/signal-keys.js";
import { isDuplicateKeyError } from "./database.js";

interface TradeDoc {
  /** The trade id: a retried turn's second write replaces the same document. */
  _id: string;
  asset: Asset;
  entryTime: number;
  exitTime: number;
  trade: ClosedTrade;
}

interface SnapshotDoc {
  _id: Asset;
  snapshot: GhostSnapshot;
}

interface SprintDoc {
  _id: string;
  scope: SprintMark["scope"];
  at: number;
  reason: string;
  recordedAt: string;
}

const FIRST_SPRINT_ID = "launch";

/** Single-document upserts only (DECISIONS 6 portable subset). */
export class MongoGhostLedger implements GhostLedgerRepository {
  private readonly trades: Collection<TradeDoc>;
  private readonly snaps: Collection<SnapshotDoc>;
  private readonly marks: Collection<SprintDoc>;

  constructor(db: Db) {
    this.trades = db.collection<TradeDoc>("ghost_trades");
    this.snaps = db.collection<SnapshotDoc>("ghost_snapshots");
    this.marks = db.collection<SprintDoc>("ghost_sprints");
  }

  async ensureIndexes(): Promise<void> {
    await this.trades.createIndex({ asset: 1, exitTime: 1 });
    await this.trades.createIndex({ exitTime: 1 });
  }

  async saveClosed(trades: readonly ClosedTrade[]): Promise<void> {
    if (trades.length === 0) return;
    await this.trades.bulkWrite(
      trades.map((t) => ({
        replaceOne: {
          filter: { _id: t.id },
          replacement: { asset: t.asset, entryTime: t.entryTime, exitTime: t.exitTime, trade: t },
          upsert: true,
        },
      })),
      { ordered: true },
    );
  }

  async closed(asset?: Asset): Promise<ClosedTrade[]> {
    return (await this.#tradeDocs(asset)).map((d) => closedTradeFromJson(d.trade));
  }

  async closedChecked(asset?: Asset): Promise<CheckedTrades> {
    return closedTradesChecked((await this.#tradeDocs(asset)).map((d) => d.trade));
  }

  #tradeDocs(asset: Asset | undefined): Promise<TradeDoc[]> {
    return this.trades
      .find(asset === undefined ? {} : { asset })
      .sort({ exitTime: 1, entryTime: 1, _id: 1 })
      .toArray();
  }

  async saveSnapshot(s: GhostSnapshot): Promise<void> {
    await this.snaps.replaceOne({ _id: s.asset }, { snapshot: s }, { upsert: true });
  }

  async saveStep(closed: readonly ClosedTrade[], s: GhostSnapshot, superseded: readonly string[] = []): Promise<void> {
    await this.saveSnapshot(s);
    await this.saveClosed(closed);
    // Last: a crash before it leaves the superseded rows to the retried turn, which finds the
    // stored status ahead of its state again and names them again.
    if (superseded.length > 0) await this.trades.deleteMany({ _id: { $in: [...superseded] }, asset: s.asset });
  }

  async snapshot(asset: Asset): Promise<GhostSnapshot | null> {
    const doc = await this.snaps.findOne({ _id: asset });
    return doc === null ? null : ghostSnapshotFromJson(doc.snapshot);
  }

  async snapshotsChecked(asset?: Asset): Promise<CheckedSnapshots> {
    const docs = await this.snaps.find(asset === undefined ? {} : { _id: asset }).sort({ _id: 1 }).toArray();
    return ghostSnapshotsChecked(docs.map((d) => ({ key: d._id, json: d.snapshot })));
  }

  async ensureFirstSprint(at: number, recordedAt: string): Promise<void> {
    await this.createIfMissing(FIRST_SPRINT_ID, { scope: "ALL", at, reason: "launch", recordedAt });
  }

  async addSprint(m: SprintMark): Promise<void> {
    await this.createIfMissing(m.id, { scope: m.scope, at: m.at, reason: m.reason, recordedAt: m.recordedAt });
  }

  /**
   * Writes a sprint mark unless one with this id exists. Two processes starting on one store
   * both run this; MongoDB then lets one upsert insert and fails the other with a duplicate key,
   * which means the mark exists, as asked (it crashed the second process's start-up).
   */
  private async createIfMissing(id: string, fields: Omit<SprintDoc, "_id">): Promise<void> {
    try {
      await this.marks.updateOne({ _id: id }, { $setOnInsert: fields }, { upsert: true });
    } catch (err) {
      if (!isDuplicateKeyError(err)) throw err;
    }
  }


  async sprints(): Promise<SprintMark[]> {
    const docs = await this.marks.find({}).sort({ at: 1, recordedAt: 1, _id: 1 }).toArray();
    return docs.map((d) => ({ id: d._id, scope: d.scope, at: d.at, reason: d.reason, recordedAt: d.recordedAt }));
  }
}
