import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ManualClock } from "../../../src/runtime/clocks/clock.js";
import { STAMP_SLOTS } from "../../../src/events/event-stamps.js";
import { InProcessEventBus } from "../../../src/events/in-process-bus.js";
import { OutboxDispatcher } from "../../../src/events/outbox-dispatcher.js";
import type { EventEnvelope } from "../../../src/events/event-envelope.js";
import { LocalActorHost } from "../../../src/runtime/local/local-host.js";
import { RegimeActor, REFIT_EVERY_MS, RETENTION_MS, type RegimeActorStatus } from "../../../src/actors/regime-actor.js";
import { openStore } from "../../../src/store/open-store.js";
import type { Store } from "../../../src/store/store.js";
import type { RegimeHistoryRepository, StoredRegime } from "../../../src/store/ports/regime-history.js";
import type { ActorStateStore } from "../../../src/store/ports/actor-state.js";
import { createLogger } from "../../../src/logging/logger.js";
import { regimeChangeData } from "../../../src/http/schemas/webhooks.js";
import { SWITCH_PROBABILITY } from "../../../src/domain/regime/hysteresis.js";
import { sharedReplayFeed } from "../../support/replay-feed.js";
import { freshStoreUrl } from "../../support/service.js";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
// Ten days of real BTC bars in a choppy stretch (spring 2025), with ETF flows live for the labels.
const FROM = Date.UTC(2025, 2, 1, 0, 7);
const TO = FROM + 10 * 24 * HOUR;
const FAIL_AT = Date.UTC(2025, 2, 4, 12);
/** From here, the commit of the first turn that switches the regime fails, after its row was stored. */
const FAIL_COMMIT_FROM = FAIL_AT + 24 * HOUR;

/** The real repository, with one write made to fail on demand: the turn's store write is the failure a turn can meet. */
class FailingOnce implements RegimeHistoryRepository {
  failAt: number | null = null;
  constructor(private readonly inner: RegimeHistoryRepository) {}
  async record(entry: StoredRegime): Promise<void> {
    if (entry.at === this.failAt) {
      this.failAt = null;
      throw new Error("store unavailable for this write");
    }
    await this.inner.record(entry);
  }
  latestAtOrBefore(at: number): Promise<StoredRegime | null> {
    return this.inner.latestAtOrBefore(at);
  }
  between(from: number, to: number): Promise<StoredRegime[]> {
    return this.inner.between(from, to);
  }
  pruneBefore(at: number): Promise<number> {
    return this.inner.pruneBefore(at);
  }
}

describe("Regime actor on the local host, bundled BTC bars", () => {
  let store: Store;
  const clock = new ManualClock(FROM);
  const changes: EventEnvelope[] = [];
  /** Actor status after each hourly evaluation, by bar close. */
  const statusAt = new Map<number, RegimeActorStatus>();
  let beforeFailure: RegimeActorStatus | undefined;
  let afterFailure: RegimeActorStatus | undefined;
  let rows: StoredRegime[] = [];
  /** The bar whose turn stored its row and then failed to commit. */
  let commitFailedAt: number | null = null;
  let feedRef: Awaited<ReturnType<typeof sharedReplayFeed>>;

  beforeAll(async () => {
    store = await openStore(freshStoreUrl("sqlite", "regimeactor"));
    const feed = await sharedReplayFeed();
    feedRef = feed;
    const bus = new InProcessEventBus();
    bus.subscribe("regime.change", async (e) => {
      changes.push(e);
    });
    const logger = createLogger("silent");
    const history = new FailingOnce(store.regimeHistory);
    const inner = store.actorState;
    // A crash (or a moved actor) between the turn's store write and its commit.
    const actorState: ActorStateStore = {
      loadState: (actor) => inner.loadState(actor),
      loadReminders: () => inner.loadReminders(),
      commit: async (change) => {
        const at = Number(change.upserts.get("lastBarClose"));
        const since = (JSON.parse(change.upserts.get("hysteresis") ?? "{}") as { since?: number }).since;
        if (commitFailedAt === null && at >= FAIL_COMMIT_FROM && since === at) {
          commitFailedAt = at;
          throw new Error("crashed before the commit");
        }
        return inner.commit(change);
      },
    };
    const host = new LocalActorHost({ store: actorState, clock, logger, dispatcher: new OutboxDispatcher(store.actorOutbox, bus, logger, 60_000), pollIntervalMs: 0 });
    host.register(RegimeActor, (ctx) => new RegimeActor(ctx, { feed, history }));
    await host.start();
    const actor = host.proxy(RegimeActor, RegimeActor.ID);
    await actor.ensureScheduled();
    await actor.ensureScheduled();
    for (let t = FROM; t <= TO; t += 15 * MINUTE) {
      clock.set(t);
      const failing = t >= FAIL_AT && t < FAIL_AT + 15 * MINUTE;
      if (failing) {
        history.failAt = FAIL_AT;
        beforeFailure = await actor.status();
      }
      await host.runDue();
      const s = await actor.status();
      if (failing) afterFailure = s;
      if (s.lastBarClose !== null && !statusAt.has(s.lastBarClose)) statusAt.set(s.lastBarClose, s);
    }
    await host.shutdown();
    rows = await store.regimeHistory.between(FROM, TO);
  }, 180_000);

  afterAll(async () => {
    await store.close();
  });

  it("records one evaluation per hourly bar close, stamped with that close, no look-ahead", () => {
    const firstClose = Math.ceil(FROM / HOUR) * HOUR;
    const expected: number[] = [];
    for (let t = firstClose; t <= TO; t += HOUR) expected.push(t);
    expect(rows.map((r) => r.at)).toEqual(expected);
    for (const r of rows) {
      expect(r.report.detectedAt).toBe(r.at);
      expect(r.report.confidence).toBeGreaterThanOrEqual(0);
      expect(r.report.confidence).toBeLessThanOrEqual(1);
      expect(r.report.btcPrice).toBeGreaterThan(50_000);
      // Published at 4 decimals each: the row sums to 1 within 8 half-units of the 4th decimal.
      expect(Math.abs(Object.values(r.report.transitionProbabilities).reduce((a, b) => a + b, 0) - 1)).toBeLessThanOrEqual(0.0004 + 1e-12);
    }
    // The regime lives on: its age grows by an hour per bar while it holds.
    const held = rows.filter((r, i) => i > 0 && rows[i - 1]?.report.regime === r.report.regime && rows[i - 1]?.at === r.at - HOUR);
    expect(held.length).toBeGreaterThan(100);
    for (const r of held) {
      const prev = rows.find((p) => p.at === r.at - HOUR);
      expect(r.report.regimeAgeHours).toBe((prev?.report.regimeAgeHours ?? NaN) + 1);
    }
  });

  it("fits on first activation from the data as of then, and refits weekly", () => {
    const first = statusAt.get(Math.ceil(FROM / HOUR) * HOUR);
    expect(first?.modelTrainedAt).toBe(Math.ceil(FROM / HOUR) * HOUR);
    const last = [...statusAt.values()].at(-1);
    expect(last?.modelTrainedAt).toBeGreaterThanOrEqual((first?.modelTrainedAt ?? 0) + REFIT_EVERY_MS);
    expect(last?.modelTrainedAt).toBeLessThan((first?.modelTrainedAt ?? 0) + REFIT_EVERY_MS + 2 * HOUR);
  });

  it("holds the published regime until a new one leads twice in a row (DECISIONS 4)", () => {
    const switches = rows.map((r, i) => ({ r, prev: rows[i - 1] })).filter(({ r, prev }) => prev !== undefined && prev.report.regime !== r.report.regime);
    expect(switches.length).toBeGreaterThan(0);
    for (const { r, prev } of switches) {
      // The hour before, the new regime was already the pending candidate, and the published one held.
      expect(statusAt.get(prev?.at ?? 0)?.candidate, new Date(r.at).toISOString()).toBe(r.report.regime);
      expect(r.report.confidence).toBeGreaterThanOrEqual(SWITCH_PROBABILITY);
      expect(r.report.regimeAgeHours).toBe(0);
    }
    // Hysteresis did hold: some hours had a challenger that did not (yet) take over.
    const held = rows.filter((r) => {
      const c = statusAt.get(r.at)?.candidate;
      return c !== null && c !== undefined && c !== r.report.regime;
    });
    expect(held.length).toBeGreaterThan(0);
  });

  it("publishes regime.change exactly when the published regime changes, with the spec's fields", () => {
    const expected = rows
      .map((r, i) => ({ r, prev: rows[i - 1] }))
      .filter(({ r, prev }) => prev !== undefined && prev.report.regime !== r.report.regime)
      .map(({ r, prev }) => ({ from_regime: prev?.report.regime, to_regime: r.report.regime, confidence: r.report.confidence }));
    // Failed hours are in rows too: the next hour's turn evaluated them first, and published their changes.
    expect(changes.map((e) => e.data)).toEqual(expected);
    for (const e of changes) {
      expect(e.event).toBe("regime.change");
      expect(regimeChangeData.safeParse(e.data).success).toBe(true);
    }
    expect(new Set(changes.map((e) => e.timestamp)).size).toBe(changes.length);
  });

  it("a failed turn leaves no half state: state unchanged, nothing published; the next hour evaluates the missed bar first", () => {
    expect(beforeFailure?.lastBarClose).toBe(FAIL_AT - HOUR);
    expect(afterFailure).toEqual(beforeFailure);
    expect(changes.some((e) => Date.parse(e.timestamp) >= FAIL_AT && Date.parse(e.timestamp) < FAIL_AT + HOUR)).toBe(false);
    expect(statusAt.has(FAIL_AT)).toBe(false);
    expect(rows.filter((r) => r.at === FAIL_AT || r.at === FAIL_AT + HOUR)).toHaveLength(2);
  });

  it("a switch whose commit failed after its row was stored is stepped again, not skipped: age and event stay on its bar", () => {
    expect(commitFailedAt).not.toBeNull();
    const at = commitFailedAt ?? NaN;
    const row = rows.find((r) => r.at === at);
    const next = rows.find((r) => r.at === at + HOUR);
    expect(row?.report.regimeAgeHours).toBe(0);
    if (next?.report.regime === row?.report.regime) expect(next?.report.regimeAgeHours).toBe(1);
    // Announced once, with the switching bar's confidence (the retry is the next hour's turn).
    const announced = changes.map((e) => ({ at: Date.parse(e.timestamp), data: regimeChangeData.parse(e.data) })).filter((e) => e.data.to_regime === row?.report.regime && e.at >= at && e.at < at + 2 * HOUR);
    expect(announced.map((e) => e.data.confidence)).toEqual([row?.report.confidence]);
    // Stamped at the switching bar's close, its detection time, though the next hour's turn sent it.
    expect(announced[0]!.at - at).toBeGreaterThanOrEqual(0);
    expect(announced[0]!.at - at).toBeLessThan(STAMP_SLOTS);
  });

  it("resumes after a restart from its stored state: same model, next bar, no repeated event", async () => {
    const before = [...statusAt.values()].at(-1);
    const bus = new InProcessEventBus();
    const replayed: EventEnvelope[] = [];
    bus.subscribe("regime.change", async (e) => {
      replayed.push(e);
    });
    const logger = createLogger("silent");
    const host = new LocalActorHost({ store: store.actorState, clock, logger, dispatcher: new OutboxDispatcher(store.actorOutbox, bus, logger, 60_000), pollIntervalMs: 0 });
    host.register(RegimeActor, (ctx) => new RegimeActor(ctx, { feed: feedRef, history: store.regimeHistory }));
    await host.start();
    await host.proxy(RegimeActor, RegimeActor.ID).ensureScheduled();
    for (let t = TO + 15 * MINUTE; t <= TO + 3 * HOUR; t += 15 * MINUTE) {
      clock.set(t);
      await host.runDue();
    }
    const after = await host.proxy(RegimeActor, RegimeActor.ID).status();
    await host.shutdown();
    expect(after.modelTrainedAt).toBe(before?.modelTrainedAt);
    const resumed = await store.regimeHistory.between(TO + 1, TO + 3 * HOUR);
    expect(resumed.map((r) => r.at)).toEqual([1, 2, 3].map((i) => Math.floor(TO / HOUR) * HOUR + i * HOUR));
    // Only a transition after the restart could be announced; nothing from before is delivered again.
    for (const e of replayed) expect(Date.parse(e.timestamp)).toBeGreaterThan(TO);
  });

  it("prunes history older than 90 market days once a day, keeping everything newer", async () => {
    const sample = rows[0]!.report;
    const DAY = 24 * HOUR;
    const old = [TO - 100 * DAY, TO - 92 * DAY, TO - 85 * DAY];
    for (const at of old) await store.regimeHistory.record({ at, report: sample });
    const logger = createLogger("silent");
    const bus = new InProcessEventBus();
    const host = new LocalActorHost({ store: store.actorState, clock, logger, dispatcher: new OutboxDispatcher(store.actorOutbox, bus, logger, 60_000), pollIntervalMs: 0 });
    host.register(RegimeActor, (ctx) => new RegimeActor(ctx, { feed: feedRef, history: store.regimeHistory }));
    await host.start();
    await host.proxy(RegimeActor, RegimeActor.ID).ensureScheduled();
    // Up to the next market midnight: no sweep yet, the old rows are all still there.
    const midnight = Math.ceil((TO + 3 * HOUR) / DAY) * DAY;
    for (let t = TO + 3 * HOUR + 15 * MINUTE; t < midnight; t += 15 * MINUTE) {
      clock.set(t);
      await host.runDue();
    }
    expect((await store.regimeHistory.between(0, FROM)).map((r) => r.at)).toEqual(old);
    for (let t = midnight; t <= midnight + HOUR; t += 15 * MINUTE) {
      clock.set(t);
      await host.runDue();
    }
    const lastBarClose = (await host.proxy(RegimeActor, RegimeActor.ID).status()).lastBarClose!;
    await host.shutdown();
    expect(lastBarClose - RETENTION_MS).toBeGreaterThan(TO - 92 * DAY);
    expect((await store.regimeHistory.between(0, FROM)).map((r) => r.at)).toEqual([TO - 85 * DAY]);
    // The actor's own hourly rows are untouched: the first one from the main run is still the oldest of them.
    expect((await store.regimeHistory.between(FROM, TO))[0]?.at).toBe(rows[0]!.at);
  });
});
