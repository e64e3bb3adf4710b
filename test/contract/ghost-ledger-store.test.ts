import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStore } from "../../src/store/open-store.js";
import type { Store } from "../../src/store/store.js";
import type { GhostSnapshot } from "../../src/store/ports/ghost-ledger.js";
import type { WeightRow } from "../../src/domain/weights/update-weights.js";
import { closedTrade as trade, traderStatus } from "../support/ghost-trades.js";
import { CachedMultipliers } from "../../src/store/signal-multipliers.js";
import { freshStoreUrl, type StoreKind } from "../support/service.js";
import { openSqlite } from "../../src/store/sqlite/database.js";
import { applyMigrations } from "../../src/store/sqlite/migrate.js";
import { ghostLedgerMigrations } from "../../src/store/sqlite/ghost-ledger.js";
import { openMongo } from "../../src/store/mongo/database.js";

const H = 3_600_000;
const T0 = Date.UTC(2026, 3, 1);

describe.each<StoreKind>(["sqlite", "mongodb"])("ghost ledger and signal weights on %s", (kind) => {
  let store: Store;
  beforeAll(async () => {
    store = await openStore(freshStoreUrl(kind, "ghostledger"));
  });
  afterAll(async () => {
    await store.close();
  });

  it("starts empty", async () => {
    expect(await store.ghostLedger.closed()).toEqual([]);
    expect(await store.ghostLedger.snapshot("TAO")).toBeNull();
    expect(await store.ghostLedger.sprints()).toEqual([]);
    expect(await store.signalWeights.all()).toEqual([]);
  });

  it("stores closed trades whole and returns them per asset, oldest exit first", async () => {
    const b2 = trade("BTC", T0 + 10 * H, -3.2);
    const b1 = trade("BTC", T0, 4.5);
    const s1 = trade("SOL", T0 + 2 * H, 1.25);
    await store.ghostLedger.saveClosed([b2, s1]);
    await store.ghostLedger.saveClosed([b1]);
    expect(await store.ghostLedger.closed("BTC")).toEqual([b1, b2]);
    expect(await store.ghostLedger.closed("SOL")).toEqual([s1]);
    expect((await store.ghostLedger.closed()).map((t) => t.id)).toEqual([b1.id, s1.id, b2.id]);
  });

  it("is idempotent by trade id: a retried turn's second write neither duplicates nor loses the trade", async () => {
    const again = trade("BTC", T0, 4.5);
    await store.ghostLedger.saveClosed([again, again]);
    const btc = await store.ghostLedger.closed("BTC");
    expect(btc.filter((t) => t.id === again.id)).toEqual([again]);
    expect(btc).toHaveLength(2);
  });

  it("keeps one status snapshot per asset, the latest written", async () => {
    await store.ghostLedger.saveSnapshot(traderStatus("TAO", T0));
    await store.ghostLedger.saveSnapshot(traderStatus("BTC", T0));
    const later = { ...traderStatus("TAO", T0 + H), status: "READY" as const };
    await store.ghostLedger.saveSnapshot(later);
    expect(await store.ghostLedger.snapshot("TAO")).toEqual(later);
    expect((await store.ghostLedger.snapshotsChecked()).snapshots.map((s) => [s.asset, s.at])).toEqual([
      ["BTC", T0],
      ["TAO", T0 + H],
    ]);
  });

  it("writes a step's closed trades and status together, and a step that closed nothing", async () => {
    const exit = trade("SOL", T0 + 2 * H, 4);
    const flat = { ...traderStatus("SOL", T0 + 3 * H), position: null };
    await store.ghostLedger.saveStep([exit], flat);
    expect((await store.ghostLedger.closed("SOL")).map((t) => t.id)).toEqual([exit.id]);
    expect(await store.ghostLedger.snapshot("SOL")).toEqual(flat);
    const next = { ...flat, at: T0 + 4 * H };
    await store.ghostLedger.saveStep([], next);
    expect(await store.ghostLedger.snapshot("SOL")).toEqual(next);
    // A retried step writes the same trade again, not a second one.
    await store.ghostLedger.saveStep([exit], next);
    expect(await store.ghostLedger.closed("SOL")).toHaveLength(1);
  });

  it("deletes with a step the trades it supersedes, of its own asset only", async () => {
    const orphan = trade("ETH", T0 + 30 * H, 7);
    const kept = trade("ETH", T0 + 31 * H, -2);
    const made = trade("ETH", T0 + 32 * H, 1);
    const otherAsset = trade("SOL", T0 + 33 * H, 3);
    await store.ghostLedger.saveClosed([orphan, kept, otherAsset]);
    // A SOL trade's id named by ETH's step is not ETH's to delete.
    await store.ghostLedger.saveStep([made], traderStatus("ETH", T0 + 34 * H), [orphan.id, otherAsset.id]);
    expect((await store.ghostLedger.closed("ETH")).map((t) => t.id)).toEqual([kept.id, made.id]);
    expect((await store.ghostLedger.closed("SOL")).map((t) => t.id)).toContain(otherAsset.id);
    expect((await store.ghostLedger.snapshot("ETH"))?.at).toBe(T0 + 34 * H);
  });

  it("reads back a trader in position whole: its open position, fills and gate board", async () => {
    const { exitTime: _exitTime, exitPrice: _exitPrice, exitReason: _exitReason, pnlUsd: _pnlUsd, pnlPct: _pnlPct, tp1PnlUsd: _tp1, result: _result, valid: _valid, ...entry } = trade("ETH", T0 + 20 * H, 2);
    const inPosition: GhostSnapshot = {
      ...traderStatus("ETH", T0 + 22 * H),
      status: "IN_POSITION",
      position: { ...entry, remaining: entry.size / 2, stopLoss: 985.5, tp1Hit: true, hwm: 1031.25, fills: [{ t: T0 + 21 * H, price: 1020, size: entry.size / 2, reason: "TP1", feeUsd: 0.05, pnlUsd: 0.9 }] },
      gates: {
        liquidity: true,
        liquidityStatus: "SUFFICIENT",
        judiciary: true,
        council: false,
        emaProximity: true,
        regime: true,
        quality: false,
        momentum: true,
        session: true,
        gatesMet: 6,
        trigger: "council: calibrated confidence 0.54 below 0.65",
        qualityScore: { trend: 20.5, momentum: 12, volume: 7.5, confidence: 10.8, regime: 14, total: 64.8 },
        emaDistancePct: 0.42,
        allowEntry: false,
      },
      liquidity: { status: "SUFFICIENT", depthUsd: 1_250_000, live: true },
    };
    await store.ghostLedger.saveSnapshot(inPosition);
    expect(await store.ghostLedger.snapshot("ETH")).toEqual(inPosition);
  });

  it("refuses a stored trade, snapshot or weights table of a shape this build does not read", async () => {
    // A store of its own: the rows it writes are unreadable on purpose.
    const other = await openStore(freshStoreUrl(kind, "ledgershape"));
    try {
      const odd = { ...trade("TAO", T0 + 30 * H, 1), exitReason: "MARGIN_CALL" } as unknown as ReturnType<typeof trade>;
      await other.ghostLedger.saveClosed([odd]);
      await expect(other.ghostLedger.closed("TAO")).rejects.toThrow(/exitReason/);
      await other.ghostLedger.saveSnapshot({ ...traderStatus("TAO", T0 + 31 * H), liquidity: { status: "UNKNOWN", depthUsd: null } as unknown as GhostSnapshot["liquidity"] });
      await expect(other.ghostLedger.snapshot("TAO")).rejects.toThrow(/live/);
      const outOfBounds = { signal_key: "BTC_RSI" as const, regime: "RISK_ON" as const, multiplier: 5, accuracy: 0.5, data_points: 12, last_updated: "2026-04-01T06:00:00.000Z" };
      await other.signalWeights.saveCycle({ cycleAt: 1, before: [], rows: [outOfBounds] });
      await expect(other.signalWeights.all()).rejects.toThrow(/multiplier/);
    } finally {
      await other.close();
    }
  });

  it("writes the launch sprint once and adds restarts in time order", async () => {
    await store.ghostLedger.ensureFirstSprint(T0, "2026-11-01T00:00:00.000Z");
    await store.ghostLedger.ensureFirstSprint(T0 + 99 * H, "2026-11-02T00:00:00.000Z");
    await store.ghostLedger.addSprint({ id: "r1", scope: "TAO", at: T0 + 5 * H, reason: "bad feed", recordedAt: "2026-11-03T00:00:00.000Z" });
    await store.ghostLedger.addSprint({ id: "r1", scope: "TAO", at: T0 + 5 * H, reason: "bad feed", recordedAt: "2026-11-03T00:00:00.000Z" });
    const marks = await store.ghostLedger.sprints();
    expect(marks.map((m) => [m.scope, m.at, m.reason])).toEqual([
      ["ALL", T0, "launch"],
      ["TAO", T0 + 5 * H, "bad feed"],
    ]);
  });

  it("upserts weight rows by (signal_key, regime), never mixing regimes", async () => {
    const row = (signal_key: WeightRow["signal_key"], regime: WeightRow["regime"], multiplier: number): WeightRow => ({
      signal_key,
      regime,
      multiplier,
      accuracy: 0.6,
      data_points: 12,
      last_updated: "2026-04-01T06:00:00.000Z",
    });
    const first = [row("BTC_RSI", "BULL_TRENDING", 1.2), row("BTC_RSI", "RISK_ON", 0.9)];
    await store.signalWeights.saveCycle({ cycleAt: 6 * 3_600_000, before: [], rows: first });
    const second = [row("BTC_RSI", "BULL_TRENDING", 1.44), row("BTC_RSI", "RISK_ON", 0.9)];
    await store.signalWeights.saveCycle({ cycleAt: 12 * 3_600_000, before: first, rows: second });
    const all = await store.signalWeights.all();
    expect(all.map((r) => [r.signal_key, r.regime, r.multiplier])).toEqual([
      ["BTC_RSI", "BULL_TRENDING", 1.44],
      ["BTC_RSI", "RISK_ON", 0.9],
    ]);
    // The last cycle keeps what it started from, for a rerun of the same mark.
    expect(await store.signalWeights.lastCycle()).toEqual({ cycleAt: 12 * 3_600_000, before: first, rows: second });
  });

  it("gives a version that moves when a weights cycle writes, so other replicas reload (issue 17)", async () => {
    const fresh = await openStore(freshStoreUrl(kind, "weightsversion"));
    try {
      expect(await fresh.signalWeights.version()).toBeNull();
      const at = (iso: string, m: number) => ({ signal_key: "BTC_RSI" as const, regime: "RISK_ON" as const, multiplier: m, accuracy: 0.5, data_points: 12, last_updated: iso });
      await fresh.signalWeights.saveCycle({ cycleAt: 1, before: [], rows: [at("2026-04-01T06:00:00.000Z", 1.1)] });
      const v1 = await fresh.signalWeights.version();
      expect(v1).not.toBeNull();
      expect(await fresh.signalWeights.version()).toBe(v1);
      // Even a rewrite with the same rows and time moves it: it counts writes, not contents.
      await fresh.signalWeights.saveCycle({ cycleAt: 1, before: [], rows: [at("2026-04-01T06:00:00.000Z", 1.1)] });
      expect(await fresh.signalWeights.version()).not.toBe(v1);
      await fresh.signalWeights.saveCycle({ cycleAt: 2, before: [], rows: [at("2026-04-01T12:00:00.000Z", 1.2)] });
      const v2 = await fresh.signalWeights.version();
      expect(v2).not.toBe(v1);
      // A second replica's cache picks the new rows up on its next sync.
      const reader = new CachedMultipliers(fresh.signalWeights);
      await reader.sync();
      expect(reader.multiplierFor("BTC_RSI", "RISK_ON")).toBe(1.2);
      await fresh.signalWeights.saveCycle({ cycleAt: 3, before: [], rows: [at("2026-04-01T18:00:00.000Z", 0.8)] });
      await reader.sync();
      expect(reader.multiplierFor("BTC_RSI", "RISK_ON")).toBe(0.8);
    } finally {
      await fresh.close();
    }
  });
});

describe.each<StoreKind>(["sqlite", "mongodb"])("sprint marks written by two processes starting together on %s", (kind) => {
  it("both succeed and leave one mark per id (a second start-up used to crash on MongoDB's duplicate key)", async () => {
    const url = freshStoreUrl(kind, "sprintrace");
    const first = await openStore(url);
    const second = await openStore(url);
    try {
      const at = Date.UTC(2026, 0, 1);
      for (let round = 0; round < 10; round++) {
        const mark = { id: `race-${round}`, scope: "ALL" as const, at: at + round, reason: "restart", recordedAt: new Date(at).toISOString() };
        await Promise.all([
          first.ghostLedger.ensureFirstSprint(at, "2026-01-01T00:00:00.000Z"),
          second.ghostLedger.ensureFirstSprint(at, "2026-01-01T00:00:00.000Z"),
          first.ghostLedger.addSprint(mark),
          second.ghostLedger.addSprint(mark),
        ]);
      }
      const marks = await first.ghostLedger.sprints();
      expect(marks).toHaveLength(11);
      expect(new Set(marks.map((m) => m.id)).size).toBe(11);
    } finally {
      await first.close();
      await second.close();
    }
  });
});

describe.each<StoreKind>(["sqlite", "mongodb"])("weights stored one row per pair before, on %s", (kind) => {
  it("move into the table as the last cycle, unchanged, once the store is opened by this version", async () => {
    const url = freshStoreUrl(kind, "weights-legacy");
    const rows: WeightRow[] = [
      { signal_key: "BTC_RSI", regime: "RISK_ON", multiplier: 0.9, accuracy: 0.41, data_points: 12, last_updated: "2026-04-01T06:00:00.000Z" },
      { signal_key: "BTC_RSI", regime: "BULL_TRENDING", multiplier: 1.2, accuracy: 0.6, data_points: 12, last_updated: "2026-04-01T06:00:00.000Z" },
    ];
    if (kind === "sqlite") {
      const db = openSqlite(url.slice("sqlite:".length));
      applyMigrations(db, ghostLedgerMigrations.filter((m) => m.version === 1));
      const insert = db.prepare("INSERT INTO signal_weights (signal_key, regime, body) VALUES (?, ?, ?)");
      for (const r of rows) insert.run(r.signal_key, r.regime, JSON.stringify(r));
      db.close();
    } else {
      const { client, db } = await openMongo(url);
      await db.collection("signal_weights").insertMany(rows.map((r) => ({ _id: `${r.regime}|${r.signal_key}` as unknown as never, row: r })));
      await client.close();
    }
    const store = await openStore(url);
    try {
      const sorted = [rows[1], rows[0]];
      expect(await store.signalWeights.all()).toEqual(sorted);
      expect(await store.signalWeights.lastCycle()).toEqual({ cycleAt: 0, before: sorted, rows: sorted });
      expect(await store.signalWeights.version()).not.toBeNull();
    } finally {
      await store.close();
    }
    // Opening again changes nothing.
    const again = await openStore(url);
    try {
      expect(await again.signalWeights.all()).toHaveLength(2);
    } finally {
      await again.close();
    }
  });
});
