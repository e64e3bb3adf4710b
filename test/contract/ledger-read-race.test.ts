import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readCheckedLedger, readLedgerSnapshot } from "../../src/application/ledger-snapshot.js";
import { INTEGRITY_CHECKS, integrityChecks } from "../../src/domain/ghost/ledger-integrity.js";
import type { ClosedTrade, OpenPosition } from "../../src/domain/ghost/trade.js";
import type { Asset } from "../../src/domain/signals/signal-keys.js";
import { openStore } from "../../src/store/open-store.js";
import type { GhostLedgerRepository } from "../../src/store/ports/ghost-ledger.js";
import type { Store } from "../../src/store/store.js";
import { closedTrade, traderStatus } from "../support/ghost-trades.js";
import { freshStoreUrl, type StoreKind } from "../support/service.js";

const H = 3_600_000;
const T0 = Date.UTC(2026, 3, 1);
const NOW = T0 + 30 * H;

function openPart(t: ClosedTrade): OpenPosition {
  const { exitTime: _e, exitPrice: _p, exitReason: _r, pnlUsd: _u, pnlPct: _c, tp1PnlUsd: _t, result: _s, valid: _v, fills: _f, ...entry } = t;
  return { ...entry, remaining: entry.size, stopLoss: 970, tp1Hit: false, hwm: null, fills: [] };
}

/**
 * The store as a reader meets it while a trader step lands: the step's status and closed trade
 * are written (by the adapter's own `saveStep`) after the status read has been answered and
 * before the whole-ledger read is, as two MongoDB documents can land between two queries.
 * Once only: the step has happened, and later reads see the ledger after it.
 */
function withStepLandingMidRead(ledger: GhostLedgerRepository, step: () => Promise<void>): GhostLedgerRepository {
  let landed: () => void = () => undefined;
  const stepLanded = new Promise<void>((resolve) => (landed = resolve));
  let stepped = false;
  const overrides: Partial<GhostLedgerRepository> = {
    snapshotsChecked: async (asset?: Asset) => {
      const read = await ledger.snapshotsChecked(asset);
      if (!stepped) {
        stepped = true;
        await step();
        landed();
      }
      return read;
    },
    // The integrity read's whole-ledger read (`closedChecked`; `closed` as the routes read it).
    closed: async (asset?: Asset) => {
      if (asset === undefined) await stepLanded;
      return ledger.closed(asset);
    },
    closedChecked: async (asset?: Asset) => {
      if (asset === undefined) await stepLanded;
      return ledger.closedChecked(asset);
    },
  };
  // Every other method runs on the adapter itself: its private fields refuse any other receiver.
  return new Proxy(ledger, {
    get(target, name) {
      const own = (overrides as Record<PropertyKey, unknown>)[name];
      if (own !== undefined) return own;
      const value: unknown = Reflect.get(target, name);
      return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

// What a step landing mid-read can break; the per-asset reads may fall on either side of it.
const RACE_CHECKS = ["one position at a time per asset", "trade ids are unique", "published stats recompute from the counted trades"];

const failing = (checks: readonly { name: string; passed: boolean }[]) => checks.filter((c) => !c.passed).map((c) => c.name);

describe.each<StoreKind>(["sqlite", "mongodb"])("tests_passing while a trader step lands mid-read, on %s", (kind) => {
  let store: Store;
  const earlier = closedTrade("BTC", T0, 4.5);
  const closing = closedTrade("BTC", T0 + 10 * H, -2);
  const step = () => store.ghostLedger.saveStep([closing], traderStatus("BTC", T0 + 16 * H, null));

  beforeAll(async () => {
    store = await openStore(freshStoreUrl(kind, "ledgerrace"));
  });
  afterAll(async () => {
    await store.close();
  });

  it("a single read sees the position both open and closed: the race is real", async () => {
    await store.ghostLedger.saveStep([earlier], traderStatus("BTC", T0 + 12 * H, openPart(closing)));
    const snapshot = await readLedgerSnapshot(withStepLandingMidRead(store.ghostLedger, step), NOW);
    expect(snapshot.open.map((p) => p.id)).toEqual([closing.id]);
    expect(snapshot.closed.map((t) => t.id)).toContain(closing.id);
    const failed = failing(integrityChecks(snapshot));
    expect(failed.slice(0, 2)).toEqual(RACE_CHECKS.slice(0, 2));
    expect(RACE_CHECKS).toEqual(expect.arrayContaining(failed));
  });

  it("the published checks read again and pass, with figures from the consistent read", async () => {
    // Back to the moment before the step: BTC in position, its trade not yet closed.
    await store.close();
    store = await openStore(freshStoreUrl(kind, "ledgerrace2"));
    await store.ghostLedger.saveStep([earlier], traderStatus("BTC", T0 + 12 * H, openPart(closing)));
    const { snapshot, checks } = await readCheckedLedger(withStepLandingMidRead(store.ghostLedger, step), NOW);
    expect(failing(checks)).toEqual([]);
    expect(checks).toHaveLength(INTEGRITY_CHECKS.length);
    expect(snapshot.open).toEqual([]);
    expect(snapshot.closed.map((t) => t.id)).toEqual([earlier.id, closing.id]);
  });

  it("a fault in the stored rows still fails: reading again hides nothing", async () => {
    // A position stored open although its trade is closed: every read shows it twice.
    await store.ghostLedger.saveSnapshot(traderStatus("BTC", T0 + 17 * H, openPart(closing)));
    const { checks } = await readCheckedLedger(store.ghostLedger, NOW);
    expect(failing(checks)).toEqual(["one position at a time per asset", "trade ids are unique"]);
  });
});
