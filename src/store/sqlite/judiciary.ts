import type { SqliteDb } from "./database.js";
import type { SqliteMigration } from "./migrate.js";
import type { StoredVerdict, VerdictPruning, VerdictRepository } from "../ports/verdicts.js";
import type { CouncilSessionRepository } from "../ports/council-sessions.js";
import type { CouncilAsset, CouncilSession } from "../../domain/council/council-types.js";
import { judiciaryVerdictFromJson } from "../../domain/judiciary/verdict-json.js";
import { councilSessionFromJson } from "../../domain/council/session-json.js";
import type { Asset } from "../../domain/signals/signal-keys.js";

export const judiciaryMigrations: readonly SqliteMigration[] = [
  {
    component: "judiciary",
    version: 1,
    // Bodies are stored whole as JSON (the routes and the Ghost Traders read every field); the
    // columns beside them are what "newest of an asset as of a time" filters and sorts on.
    up: `
      CREATE TABLE verdicts (id TEXT PRIMARY KEY, asset TEXT NOT NULL, at INTEGER NOT NULL, body TEXT NOT NULL);
      CREATE INDEX verdicts_asset_at ON verdicts (asset, at);
      CREATE TABLE council_sessions (
        id TEXT PRIMARY KEY, asset TEXT NOT NULL, at INTEGER NOT NULL, mode TEXT NOT NULL, body TEXT NOT NULL);
      CREATE INDEX council_sessions_asset_at ON council_sessions (asset, at);
      CREATE INDEX council_sessions_asset_mode_at ON council_sessions (asset, mode, at);`,
  },
];

interface VerdictRow {
  id: string;
  at: number;
  body: string;
}

const toVerdict = (r: VerdictRow): StoredVerdict => ({ id: r.id, at: r.at, verdict: judiciaryVerdictFromJson(JSON.parse(r.body)) });
const NO_LIMIT = Number.MAX_SAFE_INTEGER;

export class SqliteVerdicts implements VerdictRepository, VerdictPruning {
  private readonly insert;
  private readonly newest;
  private readonly one;
  private readonly prune;
  private readonly range;

  constructor(db: SqliteDb) {
    this.range = db.prepare<[string, number, number], VerdictRow>("SELECT id, at, body FROM verdicts WHERE asset = ? AND at > ? AND at <= ? ORDER BY at ASC");
    this.insert = db.prepare("INSERT INTO verdicts (id, asset, at, body) VALUES (?, ?, ?, ?) ON CONFLICT (id) DO NOTHING");
    this.newest = db.prepare<[string, number], VerdictRow>("SELECT id, at, body FROM verdicts WHERE asset = ? AND at <= ? ORDER BY at DESC LIMIT 1");
    this.one = db.prepare<[string], VerdictRow>("SELECT id, at, body FROM verdicts WHERE id = ?");
    this.prune = db.prepare("DELETE FROM verdicts WHERE asset = ? AND at < ?");
  }

  async save(entry: StoredVerdict): Promise<void> {
    this.insert.run(entry.id, entry.verdict.asset, entry.at, JSON.stringify(entry.verdict));
  }

  async latest(asset: Asset, at = NO_LIMIT): Promise<StoredVerdict | null> {
    const row = this.newest.get(asset, at);
    return row ? toVerdict(row) : null;
  }

  async byId(id: string): Promise<StoredVerdict | null> {
    const row = this.one.get(id);
    return row ? toVerdict(row) : null;
  }

  async between(asset: Asset, after: number, upTo: number): Promise<StoredVerdict[]> {
    return this.range.all(asset, after, upTo).map(toVerdict);
  }

  async pruneBefore(asset: Asset, before: number): Promise<number> {
    return this.prune.run(asset, before).changes;
  }
}

export class SqliteCouncilSessions implements CouncilSessionRepository {
  private readonly insert;
  private readonly newest;
  private readonly newestWithModel;
  private readonly one;
  private readonly modelBetween;

  constructor(db: SqliteDb) {
    this.insert = db.prepare("INSERT INTO council_sessions (id, asset, at, mode, body) VALUES (?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING");
    this.newest = db.prepare<[string, number], { body: string }>("SELECT body FROM council_sessions WHERE asset = ? AND at <= ? ORDER BY at DESC LIMIT 1");
    this.newestWithModel = db.prepare<[string, number], { body: string }>(
      "SELECT body FROM council_sessions WHERE asset = ? AND mode = 'council' AND at <= ? ORDER BY at DESC LIMIT 1",
    );
    this.one = db.prepare<[string], { body: string }>("SELECT body FROM council_sessions WHERE id = ?");
    this.modelBetween = db.prepare<[string, number, number], { body: string }>(
      "SELECT body FROM council_sessions WHERE asset = ? AND mode = 'council' AND at > ? AND at <= ? ORDER BY at",
    );
  }

  async modelSessionsBetween(asset: CouncilAsset, from: number, to: number): Promise<CouncilSession[]> {
    return this.modelBetween.all(asset, from, to).map((r) => councilSessionFromJson(JSON.parse(r.body)));
  }

  async save(session: CouncilSession): Promise<void> {
    this.insert.run(session.id, session.asset, session.at, session.mode, JSON.stringify(session));
  }

  async latest(asset: CouncilAsset, at = NO_LIMIT): Promise<CouncilSession | null> {
    const row = this.newest.get(asset, at);
    return row ? councilSessionFromJson(JSON.parse(row.body)) : null;
  }

  async latestWithModel(asset: CouncilAsset, at = NO_LIMIT): Promise<CouncilSession | null> {
    const row = this.newestWithModel.get(asset, at);
    return row ? councilSessionFromJson(JSON.parse(row.body)) : null;
  }

  async byId(id: string): Promise<CouncilSession | null> {
    const row = this.one.get(id);
    return row ? councilSessionFromJson(JSON.parse(row.body)) : null;
  }
}
