import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStore } from "../../../src/store/open-store.js";
import type { Store } from "../../../src/store/store.js";
import type { SignalHistoryPoint, SignalHistoryRepository } from "../../../src/store/ports/signal-history.js";
import { SignalRecorder } from "../../../src/application/signal-recorder.js";
import { defaultReplayStart } from "../../../src/feeds/replay/replay-start.js";
import { signalSource } from "../../../src/domain/signals/catalogue.js";
import { SIGNAL_KEYS, type SignalKey } from "../../../src/domain/signals/signal-keys.js";
import type { ReplayMarketFeed } from "../../../src/feeds/replay/replay-feed.js";
import { sharedReplayFeed } from "../../support/replay-feed.js";
import { freshStoreUrl, type StoreKind } from "../../support/service.js";

const H = 3_600_000;
const DAY = 24 * H;

/** A store that dies half-way through a write, as a process killed mid-batch would. */
function crashingAfter(inner: SignalHistoryRepository, keep: number): SignalHistoryRepository {
  return {
    latestRecordedAt: (k) => inner.latestRecordedAt(k),
    page: (q) => inner.page(q),
    pruneBefore: (c) => inner.pruneBefore(c),
    async append(points: readonly SignalHistoryPoint[]) {
      await inner.append(points.slice(0, keep));
      throw new Error("crashed mid-write");
    },
  };
}

async function everything(store: Store, key: SignalKey, asOf: number): Promise<[number, number][]> {
  const p = await store.signalHistory.page({ signalKey: key, asOf, page: 1, perPage: 500 });
  return p.items.map((i) => [i.recordedAt, i.value]);
}

describe.each<StoreKind>(["sqlite", "mongodb"])("SignalRecorder on %s", (kind) => {
  let store: Store;
  let feed: ReplayMarketFeed;
  let start: number;
  beforeAll(async () => {
    store = await openStore(freshStoreUrl(kind, "recorder"));
    feed = await sharedReplayFeed();
    start = defaultReplayStart(feed.span());
  });
  afterAll(() => store.close());

  const expected = (key: SignalKey, from: number, to: number) =>
    feed.readingsBetween(key, from, to).map((r): [number, number] => [r.observedAt, r.value]).reverse();

  it("backfills the first run and records only signals with a real source in the mode", async () => {
    const recorder = new SignalRecorder(feed, store.signalHistory, { backfillMs: 2 * DAY });
    // Crash first, after 10 points of the batch: the rerun must leave no gap and no duplicate.
    await expect(new SignalRecorder(feed, crashingAfter(store.signalHistory, 10), { backfillMs: 2 * DAY }).recordUpTo(start)).rejects.toThrow(
      "crashed mid-write",
    );
    const first = await recorder.recordUpTo(start);
    expect(first.written).toBeGreaterThan(40);
    for (const key of SIGNAL_KEYS) {
      const stored = await everything(store, key, start);
      if (!signalSource(key, "replay")) expect(stored, key).toEqual([]);
      else expect(stored, key).toEqual(expected(key, start - 2 * DAY, start));
    }
    // Both ends included: bars closing at start − 48 h, …, start.
    expect((await everything(store, "BTC_RSI", start)).length).toBe(49);
  });

  it("is idempotent and resumes from the newest recorded instant", async () => {
    const recorder = new SignalRecorder(feed, store.signalHistory, { backfillMs: 2 * DAY });
    expect((await recorder.recordUpTo(start)).written).toBe(0);
    const later = start + 5 * H;
    const r = await recorder.recordUpTo(later);
    // 5 hourly bars for each of the 5 candle signals, plus whatever daily/8-hourly rows fell due.
    expect(r.written).toBeGreaterThanOrEqual(25);
    expect(await everything(store, "BTC_RSI", later)).toEqual(expected("BTC_RSI", start - 2 * DAY, later));
  });

  it("serializes overlapping runs (a timer tick racing a reminder) without error or duplicate", async () => {
    const recorder = new SignalRecorder(feed, store.signalHistory, { backfillMs: 2 * DAY });
    const to = start + 12 * H;
    const [a, b] = await Promise.all([recorder.recordUpTo(to), recorder.recordUpTo(to)]);
    expect(b.written).toBe(0);
    expect(a.written).toBeGreaterThanOrEqual(35);
    expect(await everything(store, "BTC_RSI", to)).toEqual(expected("BTC_RSI", start - 2 * DAY, to));
  });

  it("prunes what falls out of retention", async () => {
    const recorder = new SignalRecorder(feed, store.signalHistory, { backfillMs: 2 * DAY, retentionMs: DAY });
    const to = start + 12 * H;
    const r = await recorder.recordUpTo(to);
    expect(r.pruned).toBeGreaterThan(0);
    const left = await everything(store, "BTC_RSI", to);
    expect(left.at(-1)?.[0]).toBeGreaterThanOrEqual(to - DAY);
    expect(left).toEqual(expected("BTC_RSI", to - DAY, to));
  });

  it("after a failed write, the same recorder reads its resume points back and leaves no gap", async () => {
    const own = await openStore(freshStoreUrl(kind, "recorder-retry"));
    try {
      let failures = 1;
      const flaky: SignalHistoryRepository = {
        latestRecordedAt: (k) => own.signalHistory.latestRecordedAt(k),
        page: (q) => own.signalHistory.page(q),
        pruneBefore: (c) => own.signalHistory.pruneBefore(c),
        async append(points) {
          if (failures-- > 0) {
            await own.signalHistory.append(points.slice(0, 7));
            throw new Error("crashed mid-write");
          }
          return own.signalHistory.append(points);
        },
      };
      const recorder = new SignalRecorder(feed, flaky, { backfillMs: DAY });
      await expect(recorder.recordUpTo(start)).rejects.toThrow("crashed mid-write");
      // The retry covers the same window, so every signal, half-written or not, is complete.
      await recorder.recordUpTo(start);
      await recorder.recordUpTo(start + 3 * H);
      for (const key of SIGNAL_KEYS) {
        if (signalSource(key, "replay")) expect(await everything(own, key, start + 3 * H), key).toEqual(expected(key, start - DAY, start + 3 * H));
      }
    } finally {
      await own.close();
    }
  });

  it("prunes at most once per market day and still honours retention", async () => {
    const own = await openStore(freshStoreUrl(kind, "recorder-prune"));
    try {
      const cutoffs: number[] = [];
      const counting: SignalHistoryRepository = {
        latestRecordedAt: (k) => own.signalHistory.latestRecordedAt(k),
        page: (q) => own.signalHistory.page(q),
        append: (points) => own.signalHistory.append(points),
        pruneBefore: (c) => {
          cutoffs.push(c);
          return own.signalHistory.pruneBefore(c);
        },
      };
      const recorder = new SignalRecorder(feed, counting, { backfillMs: 2 * DAY, retentionMs: DAY });
      const day = Math.floor(start / DAY) * DAY;
      for (const t of [day, day + H, day + DAY - 60_000, day + DAY, day + DAY + 1]) await recorder.recordUpTo(t);
      expect(cutoffs).toEqual([day - DAY, day]);
      expect(await everything(own, "BTC_RSI", day + DAY)).toEqual(expected("BTC_RSI", day, day + DAY));
    } finally {
      await own.close();
    }
  });

  it("with a commit window, holds a burst of runs and writes them in one transaction, losing nothing", async () => {
    const own = await openStore(freshStoreUrl(kind, "recorder-window"));
    try {
      const batches: number[] = [];
      const counting: SignalHistoryRepository = {
        latestRecordedAt: (k) => own.signalHistory.latestRecordedAt(k),
        page: (q) => own.signalHistory.page(q),
        pruneBefore: (c) => own.signalHistory.pruneBefore(c),
        append: (points) => {
          batches.push(points.length);
          return own.signalHistory.append(points);
        },
      };
      // An hour-long window on a scripted wall clock: the flush timer (real time) cannot fire
      // during the test, so what commits when is decided by the runs alone.
      let wall = 0;
      const recorder = new SignalRecorder(feed, counting, { backfillMs: DAY, commitWindowMs: H, wallNow: () => wall });
      const hour = Math.floor(start / H) * H;
      // The first run commits at once (no commit yet); the next five, 1 ms apart, are held.
      const first = await recorder.recordUpTo(hour);
      expect(first.written).toBeGreaterThan(0);
      expect(first.held).toBe(0);
      let held = 0;
      for (let i = 1; i <= 5; i++) {
        wall += 1;
        const r = await recorder.recordUpTo(hour + i * H);
        expect(r.written).toBe(0);
        held = r.held;
      }
      expect(held).toBeGreaterThan(0);
      expect(await own.signalHistory.latestRecordedAt("BTC_RSI")).toBeLessThanOrEqual(hour);
      // A run after the window writes its points and the held ones together.
      wall += H;
      const late = await recorder.recordUpTo(hour + 6 * H);
      expect(late.written).toBeGreaterThan(held);
      expect(late.held).toBe(0);
      expect(batches).toHaveLength(2);
      expect(await everything(own, "BTC_RSI", hour + 6 * H)).toEqual(expected("BTC_RSI", hour - DAY, hour + 6 * H));
      // flush() writes what is held at once.
      wall += 1;
      expect((await recorder.recordUpTo(hour + 7 * H)).held).toBeGreaterThan(0);
      expect(await recorder.flush()).toBeGreaterThan(0);
      expect(await everything(own, "BTC_RSI", hour + 7 * H)).toEqual(expected("BTC_RSI", hour - DAY, hour + 7 * H));
    } finally {
      await own.close();
    }
  });

  it("with a commit window, a timer writes the held points when no run follows", async () => {
    const own = await openStore(freshStoreUrl(kind, "recorder-timer"));
    try {
      // The scripted wall clock stands still, so the second run is held however slow the store
      // is; the flush timer then waits its 30 ms of real time.
      const recorder = new SignalRecorder(feed, own.signalHistory, { backfillMs: DAY, commitWindowMs: 30, wallNow: () => 0 });
      const hour = Math.floor(start / H) * H;
      await recorder.recordUpTo(hour);
      const r = await recorder.recordUpTo(hour + 3 * H);
      expect(r.held).toBeGreaterThan(0);
      const deadline = Date.now() + 10_000;
      while ((await own.signalHistory.latestRecordedAt("BTC_RSI")) !== hour + 3 * H && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      expect(await everything(own, "BTC_RSI", hour + 3 * H)).toEqual(expected("BTC_RSI", hour - DAY, hour + 3 * H));
    } finally {
      await own.close();
    }
  });
});
