import type { SqliteMigration } from "./migrate.js";
import { accessMigrations } from "./access.js";
import { actorRuntimeMigrations } from "./actor-state.js";
import { signalHistoryMigrations } from "./signal-history.js";
import { liveObservationMigrations } from "./live-observations.js";
import { webhookMigrations } from "./webhooks.js";
import { regimeHistoryMigrations } from "./regime-history.js";
import { ghostLedgerMigrations } from "./ghost-ledger.js";
import { judiciaryMigrations } from "./judiciary.js";
import { evidenceMigrations } from "./evidence.js";
import { calibrationHistoryMigrations } from "./calibration-history.js";
import { replayClockMigrations } from "./replay-clock.js";
import { providerHoldMigrations } from "./provider-holds.js";
import { responseCacheMigrations } from "./response-cache.js";

/** Every component's migrations; applyMigrations orders and records them. */
export const sqliteMigrations: readonly SqliteMigration[] = [...accessMigrations, ...actorRuntimeMigrations, ...signalHistoryMigrations, ...regimeHistoryMigrations, ...ghostLedgerMigrations, ...judiciaryMigrations, ...webhookMigrations, ...liveObservationMigrations, ...evidenceMigrations, ...calibrationHistoryMigrations, ...replayClockMigrations, ...responseCacheMigrations, ...providerHoldMigrations];
