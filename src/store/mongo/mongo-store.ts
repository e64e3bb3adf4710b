import type { Db, MongoClient } from "mongodb";
import type { Store } from "../store.js";
import { openMongo } from "./database.js";
import { MongoApiKeys, MongoCounters, MongoNewsletter, MongoSlidingWindows } from "./access.js";
import { MongoActorStateStore } from "./actor-state.js";
import { ActorWriteQueue } from "./actor-write-queue.js";
import { MongoOutbox } from "./outbox.js";
import { MongoSignalHistory } from "./signal-history.js";
import { MongoWebhooks } from "./webhooks.js";
import { MongoRegimeHistory } from "./regime-history.js";
import { MongoGhostLedger } from "./ghost-ledger.js";
import { MongoSignalWeights } from "./signal-weights.js";
import { MongoCouncilSessions, MongoVerdicts } from "./judiciary.js";
import { MongoLiveObservations } from "./live-observations.js";
import { MongoEvidence } from "./evidence.js";
import { MongoCalibrationHistory } from "./calibration-history.js";
import { MongoReplayClock } from "./replay-clock.js";
import { MongoProviderHolds } from "./provider-holds.js";
import { MongoResponseCache } from "./response-cache.js";

export async function openMongoStore(url: string): Promise<Store> {
  const { client, db } = await openMongo(url);
  try {
    return await storeOn(client, db);
  } catch (err) {
    // A connected client keeps the process alive: the CLI hung after a failed start.
    await client.close().catch(() => undefined);
    throw err;
  }
}

async function storeOn(client: MongoClient, db: Db): Promise<Store> {
  // One queue for both: turns and outbox acknowledgements write the same actor documents.
  const actorWrites = new ActorWriteQueue();
  const repos = {
    apiKeys: new MongoApiKeys(db),
    counters: new MongoCounters(db),
    slidingWindows: new MongoSlidingWindows(db),
    newsletter: new MongoNewsletter(db),
    actorState: new MongoActorStateStore(db, actorWrites),
    actorOutbox: new MongoOutbox(db, actorWrites),
    signalHistory: new MongoSignalHistory(db),
    webhooks: new MongoWebhooks(db),
    regimeHistory: new MongoRegimeHistory(db),
    ghostLedger: new MongoGhostLedger(db),
    signalWeights: new MongoSignalWeights(db),
    verdicts: new MongoVerdicts(db),
    councilSessions: new MongoCouncilSessions(db),
    liveObservations: new MongoLiveObservations(db),
    evidence: new MongoEvidence(db),
    calibrationHistory: new MongoCalibrationHistory(db),
    replayClock: new MongoReplayClock(db),
    responseCache: new MongoResponseCache(db),
    providerHolds: new MongoProviderHolds(db),
  };
  for (const repo of Object.values(repos)) await repo.ensureIndexes();
  return {
    kind: "mongodb",
    ...repos,
    async ping() {
      await db.command({ ping: 1 });
    },
    async close() {
      await client.close();
    },
  };
}
