import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStore } from "../../src/store/open-store.js";
import type { Store } from "../../src/store/store.js";
import type { StoredVerdict } from "../../src/store/ports/verdicts.js";
import type { CouncilAsset, CouncilMode, CouncilSession } from "../../src/domain/council/council-types.js";
import { evaluateJudiciary } from "../../src/domain/judiciary/evaluate.js";
import { deliberate } from "../../src/domain/council/deliberate.js";
import type { Asset } from "../../src/domain/signals/signal-keys.js";
import { councilInput } from "../unit/council/fixtures.js";
import { freshStoreUrl, type StoreKind } from "../support/service.js";
import { calibratedVerdict } from "../../src/domain/judiciary/calibrated-verdict.js";
import { calibratedSession } from "../../src/domain/council/calibrated-session.js";
import type { CalibrationMap } from "../../src/domain/calibration/calibration-map.js";
import type { JudiciaryVerdict } from "../../src/domain/judiciary/judiciary-verdict.js";

/** A day's map as an EvidenceActor stores it (two isotonic steps), to publish with. */
const map = (stream: string): CalibrationMap => ({
  stream,
  horizonHours: 24,
  fittedAt: T0 - 3_600_000,
  kind: "isotonic",
  baseRate: 0.52,
  upShare: 0.53,
  outcomes: 4_000,
  windowDays: 365,
  steps: [
    { maxScore: 0, meanScore: -20, pUp: 0.47, count: 2_000 },
    { maxScore: 100, meanScore: 20, pUp: 0.58, count: 2_000 },
  ],
});

const M5 = 5 * 60_000;
const T0 = Date.UTC(2026, 3, 1);

function verdict(asset: Asset, at: number): StoredVerdict {
  const input = councilInput(asset === "BTC" ? "BTC" : "SOL");
  return { id: `${asset}-${at}`, at, verdict: evaluateJudiciary(asset, { readings: input.readings, regime: "BULL_TRENDING", price: input.price }) };
}

async function session(asset: CouncilAsset, at: number, mode: CouncilMode): Promise<CouncilSession> {
  const o = await deliberate(councilInput(asset, { at }), { advisor: null, newId: () => `${asset}-${at}` });
  if (o.kind !== "session") throw new Error("expected a session");
  // The store keeps whatever mode the session had; a model session is the same shape with mode council.
  return { ...o.session, mode };
}

describe.each<StoreKind>(["sqlite", "mongodb"])("verdict and council-session repositories on %s", (kind) => {
  let store: Store;
  beforeAll(async () => {
    store = await openStore(freshStoreUrl(kind, "judiciary"));
  });
  afterAll(async () => {
    await store.close();
  });

  it("starts empty", async () => {
    expect(await store.verdicts.latest("BTC")).toBeNull();
    expect(await store.verdicts.byId("nope")).toBeNull();
    expect(await store.councilSessions.latest("TAO")).toBeNull();
    expect(await store.councilSessions.latestWithModel("TAO")).toBeNull();
  });

  it("stores verdicts whole, idempotently, and answers the newest of an asset as of a time", async () => {
    const entries = [0, 1, 2].map((i) => verdict("BTC", T0 + i * M5));
    for (const e of entries) await store.verdicts.save(e);
    await store.verdicts.save(entries[1] as StoredVerdict);
    await store.verdicts.save(verdict("SOL", T0 + 10 * M5));
    expect(await store.verdicts.latest("BTC")).toEqual(entries[2]);
    expect(await store.verdicts.latest("BTC", T0 + M5 + 1)).toEqual(entries[1]);
    expect(await store.verdicts.latest("BTC", T0 - 1)).toBeNull();
    expect((await store.verdicts.latest("SOL"))?.verdict.asset).toBe("SOL");
    expect(await store.verdicts.byId(entries[0]?.id ?? "")).toEqual(entries[0]);
    // After one time, up to and including another, oldest first, the asset's own only.
    expect(await store.verdicts.between("BTC", T0, T0 + 2 * M5)).toEqual([entries[1], entries[2]]);
    expect(await store.verdicts.between("BTC", T0 - 1, T0 + M5)).toEqual([entries[0], entries[1]]);
    expect(await store.verdicts.between("BTC", T0 + 2 * M5, T0 + 20 * M5)).toEqual([]);
    expect((await store.verdicts.between("SOL", T0, T0 + 20 * M5)).map((v) => v.verdict.asset)).toEqual(["SOL"]);
  });

  it("prunes only the asset's verdicts older than the cut-off", async () => {
    expect(await store.verdicts.pruneBefore("BTC", T0 + 2 * M5)).toBe(2);
    expect(await store.verdicts.latest("BTC", T0 + M5)).toBeNull();
    expect((await store.verdicts.latest("BTC"))?.at).toBe(T0 + 2 * M5);
    expect((await store.verdicts.latest("SOL"))?.at).toBe(T0 + 10 * M5);
  });

  it("stores sessions with every vote and finds the newest, and the newest with a model answer", async () => {
    const s1 = await session("TAO", T0, "council");
    const s2 = await session("TAO", T0 + 6 * M5, "judiciary");
    const b1 = await session("BTC", T0 + 12 * M5, "council");
    for (const s of [s1, s2, b1, s1]) await store.councilSessions.save(s);
    const latest = await store.councilSessions.latest("TAO");
    expect(latest).toEqual(s2);
    expect(latest?.votes).toHaveLength(6);
    expect(await store.councilSessions.latest("TAO", T0 + M5)).toEqual(s1);
    expect(await store.councilSessions.latestWithModel("TAO")).toEqual(s1);
    expect(await store.councilSessions.latestWithModel("TAO", T0 - 1)).toBeNull();
    expect(await store.councilSessions.latest("SOL")).toBeNull();
    expect(await store.councilSessions.byId(b1.id)).toEqual(b1);
  });

  it("lists the sessions the model answered in over a span, oldest first, bounds (from, to]", async () => {
    const later = await session("TAO", T0 + 24 * M5, "council");
    const judiciary = await session("TAO", T0 + 18 * M5, "judiciary");
    for (const s of [later, judiciary]) await store.councilSessions.save(s);
    const ats = async (from: number, to: number) => (await store.councilSessions.modelSessionsBetween("TAO", from, to)).map((s) => s.at);
    expect(await ats(T0 - 1, T0 + 30 * M5)).toEqual([T0, T0 + 24 * M5]);
    expect(await ats(T0, T0 + 24 * M5)).toEqual([T0 + 24 * M5]);
    expect(await ats(T0 - 1, T0 + 24 * M5 - 1)).toEqual([T0]);
    expect((await store.councilSessions.modelSessionsBetween("TAO", T0 - 1, T0))[0]?.votes).toHaveLength(6);
    expect(await store.councilSessions.modelSessionsBetween("SOL", 0, T0 + 30 * M5)).toEqual([]);
  });

  it("reads a published verdict and session back whole: calibration, raw figures and every vote's basis", async () => {
    const published: StoredVerdict = { id: "ETH-published", at: T0 + 40 * M5, verdict: calibratedVerdict(verdict("ETH", T0).verdict, map("verdict:ETH")) };
    expect(published.verdict.calibration).toBeDefined();
    await store.verdicts.save(published);
    expect(await store.verdicts.byId(published.id)).toEqual(published);

    const raw = await session("SOL", T0 + 40 * M5, "judiciary");
    const agentMaps = Object.fromEntries(raw.votes.map((v) => [v.agent, map(`agent:SOL:${v.agent}`)]));
    const calibrated = calibratedSession(raw, map("council:SOL"), agentMaps);
    expect(calibrated.votes.filter((v) => v.calibration !== undefined).length).toBeGreaterThan(0);
    await store.councilSessions.save(calibrated);
    expect(await store.councilSessions.byId(calibrated.id)).toEqual(calibrated);
  });

  it("refuses to hand out a stored row of a shape this build does not read, instead of a half-formed verdict or session", async () => {
    const { evidence: _dropped, ...withoutEvidence } = verdict("ETH", T0).verdict;
    await store.verdicts.save({ id: "ETH-other-build", at: T0 + 50 * M5, verdict: withoutEvidence as JudiciaryVerdict });
    await expect(store.verdicts.byId("ETH-other-build")).rejects.toThrow(/evidence/);

    const other = await session("BTC", T0 + 50 * M5, "judiciary");
    await store.councilSessions.save({ ...other, id: "BTC-other-build", consensusLevel: "OVERWHELMING" as CouncilSession["consensusLevel"] });
    await expect(store.councilSessions.byId("BTC-other-build")).rejects.toThrow(/consensusLevel/);
  });
});
