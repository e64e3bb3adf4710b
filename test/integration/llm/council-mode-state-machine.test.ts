import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CouncilActor } from "../../../src/actors/council-actor.js";
import type { CouncilSession } from "../../../src/domain/council/council-types.js";
import { councilSessionId } from "../../../src/domain/council/session-id.js";
import { EvidenceActor } from "../../../src/actors/evidence-actor.js";
import { councilModeAt } from "../../../src/domain/council/council-mode.js";
import { ManualClock } from "../../../src/runtime/clocks/clock.js";
import { calendarStatus } from "../../../src/domain/signals/macro-calendar.js";
import { ASSETS } from "../../../src/domain/signals/signal-keys.js";
import type { EventEnvelope } from "../../../src/events/event-envelope.js";
import { InProcessEventBus } from "../../../src/events/in-process-bus.js";
import { OutboxDispatcher } from "../../../src/events/outbox-dispatcher.js";
import type { ReplayMarketFeed } from "../../../src/feeds/replay/replay-feed.js";
import { councilNewDataSchema } from "../../../src/http/schemas/council.js";
import type { LlmCallRecord } from "../../../src/llm/call-record.js";
import { councilAdvisorFromEnv } from "../../../src/llm/advisor-from-env.js";
import { llmTelemetry } from "../../../src/observability/llm-telemetry.js";
import { LocalActorHost } from "../../../src/runtime/local/local-host.js";
import { openSqliteStore } from "../../../src/store/sqlite/sqlite-store.js";
import type { Store } from "../../../src/store/store.js";
import { captureLogger } from "../../support/capture-logger.js";
import { LLAMA_MODEL, startLlamaServer, type LlamaServer } from "../../support/llama-server.js";
import { sharedReplayFeed } from "../../support/replay-feed.js";

/**
 * SPEC.md's council_mode state machine with a real model server process: the provider goes away
 * mid-session, the service carries on in judiciary mode once no recent council verdict exists,
 * and returns to council mode by itself when the provider is back. The BTC council actor runs on
 * the real local actor host over the bundled replay data; market time is stepped by hand.
 */

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;

/**
 * Slots a stage may take for the model to answer acceptably. SmolLM2-135M often writes a
 * schema-valid reply the service refuses (a thesis of "][", "LIVE" or a loop); a session without
 * an acceptable reply is rightly a judiciary one, so a stage waits for the next slot. BTC's
 * sessions went without one 2 times in 17 watched alone (2026-12-04 and 12-05), more under CI's
 * load (2 of 3 in one run); at 0.4, ten such slots in a row come about once in 10,000 stages.
 */
const MAX_SLOTS = 10;
/** Market time the test may step through: three stages of MAX_SLOTS slots and the two down. */
const MARKET_HOURS = Math.ceil(((3 * MAX_SLOTS + 2) * 30) / 60);

let feed: ReplayMarketFeed;
let llama: LlamaServer;
let store: Store;
let host: LocalActorHost;
let dispatcher: OutboxDispatcher;
const clock = new ManualClock(0);
const events: EventEnvelope[] = [];
const calls: LlmCallRecord[] = [];
const log = captureLogger();
let onCall: (r: LlmCallRecord) => void = () => undefined;

function ordinaryMorning(): number {
  const span = feed.span().lastBarClose;
  const end = Math.min(...ASSETS.map((a) => span[a] ?? 0));
  for (let day = Math.floor(end / DAY) * DAY - 3 * DAY; day > end - 120 * DAY; day -= DAY) {
    // The test's market hours must stay clear of a BLACKOUT (it would pause the council).
    const clear = Array.from({ length: MARKET_HOURS + 1 }, (_, i) => 8 + i).every((h) => calendarStatus(feed.calendarEvents(), day + h * HOUR).status !== "BLACKOUT");
    if (clear) return day + 8 * HOUR;
  }
  throw new Error("no ordinary day in the bundled data");
}

/** council_mode exactly as GET /v1/verdict/latest infers it at market time `now`. */
async function councilModeNow(now: number) {
  const [session, model] = await Promise.all([store.councilSessions.latest("BTC", now), store.councilSessions.latestWithModel("BTC", now)]);
  return councilModeAt({ lastSession: session && { at: session.at, mode: session.mode }, lastModelSessionAt: model?.at ?? null }, now, false);
}

/** Steps market time to `t` (a slot of the BTC council) and returns the session and its council.new. */
async function sessionAt(t: number) {
  const published = events.length;
  clock.set(t);
  await host.runDue();
  await dispatcher.flush();
  const s = await store.councilSessions.latest("BTC", t);
  if (s === null || s.id !== councilSessionId("BTC", t)) {
    const failed = log.lines.filter((l) => l.level === 50 || l.level === 40).map((l) => `${String(l.msg)} ${JSON.stringify(l.err ?? "")}`);
    throw new Error(`no BTC session stored at ${new Date(t).toISOString()}: ${failed.slice(-3).join(" | ")}`);
  }
  const fresh = events.slice(published);
  expect(fresh).toHaveLength(1);
  return { session: s, event: councilNewDataSchema.parse(fresh[0]?.data) };
}

beforeAll(async () => {
  feed = await sharedReplayFeed();
  llama = await startLlamaServer();
  store = openSqliteStore(":memory:");
  const bus = new InProcessEventBus();
  bus.subscribe("council.new", async (e) => void events.push(e));
  dispatcher = new OutboxDispatcher(store.actorOutbox, bus, log.logger, 60_000);
  host = new LocalActorHost({ store: store.actorState, clock, logger: log.logger, dispatcher, pollIntervalMs: 0 });
  const logged = llmTelemetry(log.logger);
  // The service's own wiring from configuration, with retries short enough for a test.
  const advisor = councilAdvisorFromEnv(
    { LLM_BASE_URL: llama.baseUrl, LLM_MODEL: LLAMA_MODEL, LLM_API_KEY: llama.apiKey, LLM_TIMEOUT_MS: 60_000, LLM_SESSION_BUDGET_MS: 240_000 },
    {
      telemetry: {
        call: (r) => {
          calls.push(r);
          logged.call(r);
          onCall(r);
        },
        session: (s) => logged.session(s),
        attempt: (a) => logged.attempt(a),
      },
    },
  );
  // The council actor asks the evidence actor for its calibration map (issue 16).
  host.register(EvidenceActor, (ctx) => new EvidenceActor(ctx, { feed, evidence: store.evidence, regimes: store.regimeHistory, sessions: store.councilSessions, history: store.calibrationHistory }));
  host.register(CouncilActor, (ctx) => new CouncilActor(ctx, { feed, sessions: store.councilSessions, regimes: store.regimeHistory, evidence: store.evidence, advisor }));
  clock.set(ordinaryMorning());
  await host.start();
  await host.proxy(CouncilActor, "BTC").ensureScheduled();
}, 180_000);

afterAll(async () => {
  await host?.shutdown();
  await store?.close();
  await llama?.stop();
});

describe("council_mode with a real provider process that goes away and comes back", () => {
  it(
    "council → provider stopped mid-session → judiciary after 45 min → provider restarted → council, no operator action",
    async () => {
      const t0 = clock.now();
      let t = t0;
      /** Sessions at successive slots until `done` (at most MAX_SLOTS); the last one is returned. */
      const slotsUntil = async (done: (s: CouncilSession) => boolean) => {
        const modes: string[] = [];
        for (let i = 0; i < MAX_SLOTS; i++) {
          const at = t;
          t += 30 * MIN;
          const before = calls.length;
          const next = await sessionAt(at);
          const sessionCalls = calls.slice(before);
          modes.push(next.session.mode);
          if (done(next.session)) {
            console.info(`state machine: sessions until the one waited for: ${modes.join(", ")}`);
            return { ...next, at, calls: sessionCalls };
          }
          // A slot passed over: nobody answered acceptably, so it was rightly a judiciary session.
          expect(next.session.mode).toBe("judiciary");
          for (const c of sessionCalls) expect(c.outcome).toBe("invalid_reply");
        }
        throw new Error(`no such session in ${MAX_SLOTS} slots: ${modes.join(", ")}`);
      };

      // 1. Healthy: a council-mode session.
      const { at: firstAt } = await slotsUntil((s) => s.mode === "council");
      expect(await councilModeNow(firstAt)).toBe("council");

      // 2. The server process is stopped while the session is under way, after its first answer.
      let stopped: Promise<void> | undefined;
      onCall = (r) => {
        if (r.outcome === "ok" && stopped === undefined) stopped = llama.stop();
      };
      const { session: cut, event: cutEvent, at: cutAt, calls: cutCalls } = await slotsUntil(() => stopped !== undefined);
      await stopped;
      onCall = () => undefined;
      expect(llama.running).toBe(false);
      // A 135M model's reply is sometimes invalid (CI saw it): such calls may precede the first
      // valid answer, which stopped the server.
      const firstOk = cutCalls.findIndex((c) => c.outcome === "ok");
      expect(firstOk, JSON.stringify(cutCalls.map((c) => c.outcome))).toBeGreaterThanOrEqual(0);
      for (const c of cutCalls.slice(0, firstOk)) expect(c.outcome).toBe("invalid_reply");
      // Refused connections (or a 5xx while it shuts down): the provider is unavailable, and
      // nothing more is asked of it in this session.
      expect(["network", "server"]).toContain(cutCalls[firstOk + 1]?.outcome);
      expect(cutCalls).toHaveLength(firstOk + 2);
      // The session completed: one agent answered, the failing ones were counted, nobody hung.
      expect(cut.mode).toBe("council");
      expect(cut.agentsSucceeded).toBe(1);
      expect(cut.agentsFailed).toBe(5);
      expect(cut.votes.filter((v) => v.source === "model")).toHaveLength(1);
      expect(cut.explanationSource).toBe("template");
      expect(cutEvent.agents_succeeded).toBe(1);

      // 3. Provider down: sessions go on in judiciary mode; council_mode holds for 45 minutes.
      const { session: down, event: downEvent } = await sessionAt(cutAt + 30 * MIN);
      expect(down.mode).toBe("judiciary");
      expect(await councilModeNow(cutAt + 30 * MIN)).toBe("council");
      expect(log.lines.some((l) => l.msg === "council session fell back to judiciary mode" && /ECONNREFUSED/.test(String(l.reason)))).toBe(true);
      await sessionAt(cutAt + 60 * MIN);
      expect(await councilModeNow(cutAt + 60 * MIN)).toBe("judiciary");
      t = cutAt + 90 * MIN;

      // 4. The same server comes back on the same address: council mode returns by itself, at the
      // first slot in which the model answers acceptably.
      await llama.start();
      const { session: back, event: backEvent, at: backAt } = await slotsUntil((s) => s.mode === "council");
      expect(await councilModeNow(backAt)).toBe("council");
      const modelVotes = back.votes.filter((v) => v.source === "model").length;
      expect(modelVotes).toBeGreaterThan(0);
      expect(back.agentsSucceeded).toBe(modelVotes);
      // council.new (what webhook subscribers receive) says how many agents the model really answered for.
      expect(backEvent.agents_succeeded).toBe(modelVotes);
      expect(downEvent.agents_succeeded).toBe(down.agentsSucceeded);
    },
    // Each of three stages may take MAX_SLOTS sessions of up to ~2 min on a busy 2-core host; the
    // two that wait for the model took one or two slots each in CI.
    2_400_000,
  );
});
