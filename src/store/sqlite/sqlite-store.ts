import type { Store } from "../store.js";
import { openSqlite } from "./database.js";
import { applyMigrations } from "./migrate.js";
import { sqliteMigrations } from "./migrations.js";
import { SqliteApiKeys, SqliteCounters, SqliteNewsletter, SqliteSlidingWindows } from "./access.js";
import { SqliteActorStateStore } from "./actor-state.js";
import { SqliteOutbox } from "./outbox.js";
import { SqliteSignalHistory } from "./signal-history.js";
import { SqliteWebhooks } from "./webhooks.js";
import { SqliteRegimeHistory } from "./regime-history.js";
import { SqliteGhostLedger } from "./ghost-ledger.js";
import { SqliteSignalWeights } from "./signal-weights.js";
import { SqliteCouncilSessions, SqliteVerdicts } from "./judiciary.js";
import { SqliteLiveObservations } from "./live-observations.js";
import { SqliteEvidence } from "./evidence.js";
import { SqliteCalibrationHistory } from "./calibration-history.js";
import { SqliteReplayClock } from "./replay-clock.js";
import { SqliteResponseCache } from "./response-cache.js";
import { SqliteProviderHolds } from "./provider-holds.js";

export function openSqliteStore(path: string): Store {
  const db = openSqlite(path);
  applyMigrations(db, sqliteMigrations);
  return {
    kind: "sqlite",
    apiKeys: new SqliteApiKeys(db),
    counters: new SqliteCounters(db),
    slidingWindows: new SqliteSlidingWindows(db),
    newsletter: new SqliteNewsletter(db),
    actorState: new SqliteActorStateStore(db),
    actorOutbox: new SqliteOutbox(db),
    signalHistory: new SqliteSignalHistory(db),
    webhooks: new SqliteWebhooks(db),
    regimeHistory: new SqliteRegimeHistory(db),
    ghostLedger: new SqliteGhostLedger(db),
    signalWeights: new SqliteSignalWeights(db),
    verdicts: new SqliteVerdicts(db),
    councilSessions: new SqliteCouncilSessions(db),
    liveObservations: new SqliteLiveObservations(db),
    evidence: new SqliteEvidence(db),
    calibrationHistory: new SqliteCalibrationHistory(db),
    replayClock: new SqliteReplayClock(db),
    responseCache: new SqliteResponseCache(db),
    providerHolds: new SqliteProviderHolds(db),
    async ping() {
      db.prepare("SELECT 1").get();
    },
    async close() {
      if (db.open) db.close();
    },
  };
}
