import { spawn } from "node:child_process";
import { createHmac, randomBytes } from "node:crypto";
import { createInterface } from "node:readline";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../src/config/env.js";
import { buildService } from "../src/composition/build-service.js";
import type { Capability } from "../src/composition/capability.js";
import { createWebhooksCapability } from "../src/composition/capabilities/webhooks.js";
import { Actor } from "../src/runtime/actor.js";
import { sharedReplayFeed } from "../test/support/replay-feed.js";
import { createTestPki } from "../test/integration/webhooks/support/tls.js";
import { report, result, type BenchResult } from "./result.js";

const SUBSCRIPTIONS = 1_000;
/** DECISIONS 5: at most five subscriptions per key, so 200 keys hold the thousand. */
const PER_KEY = 5;
const TARGET_S = 5;
const ROUNDS = 2;
/** Extra warm rounds per configuration for the sealing comparison (median of them). */
const WARM_ROUNDS = 5;

/** The producer: an actor whose turn raises the event, as the engines' actors do. */
class FanOutSource extends Actor {
  static readonly actorType = "BenchFanOutSource";

  async raise(data: { round: number }): Promise<string> {
    const envelope = await this.ctx.publish("verdict.new", { asset: "BTC", verdict: "HOLD", confidence: 0.5, round: data.round });
    return envelope.id;
  }
}

/** One delivery as the receiver process reported it. */
interface Receipt {
  readonly path: string;
  readonly signature: string | null;
  readonly body: string;
  readonly round: number;
}

const sourceCapability: Capability = {
  name: "bench-fan-out-source",
  registerActors: (ctx) => ctx.host.register(FanOutSource),
  start: async () => undefined,
  routes: () => [],
};

/** What one service run measured: seconds per round (cold first), lost per round, bad signatures. */
interface RunFigures {
  readonly seconds: number[];
  readonly lost: number[];
  readonly badSignatures: number;
}

const median = (xs: readonly number[]): number => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[mid] ?? Number.NaN) : ((sorted[mid - 1] ?? Number.NaN) + (sorted[mid] ?? Number.NaN)) / 2;
};

/**
 * Issue 20: one event fanned out through the service's real path: an actor's turn raises
 * verdict.new into its outbox → the dispatcher publishes it on the bus → the webhook fan-out
 * looks up the active subscriptions in the store → each WebhookSubscription actor accepts it and
 * sends it, signed, from its reminder turn over HTTPS (the SSRF-filtering agent) to a local
 * receiver in its own process. 1,000 subscriptions made through POST /v1/webhooks; the clock runs from the call
 * that raises the event to the last receipt. Target: ≤ 5 s, none lost. The first round also pays
 * for activating 1,000 actors and opening the TLS connections; the second runs warm.
 *
 * The service runs twice, one after the other against the same receiver: with secrets stored as
 * issued (the default; the issue-20 figures) and sealed at rest (WEBHOOK_SECRET_KEYS), where every
 * fan-out opens 1,000 store copies and every actor turn opens and seals its state's copy. The
 * warm median of each is compared.
 */
export async function run(): Promise<BenchResult[]> {
  const pki = createTestPki();
  let waiter: { round: number; need: number; resolve: () => void } | null = null;
  const counts = new Map<number, number>();
  /** performance.now() of each round's first receipt: splits accept (fan-out) from sending. */
  const firstAt = new Map<number, number>();
  const received: Receipt[] = [];
  const receiver = spawn(process.execPath, ["--import", "tsx", "bench/webhooks/receiver-process.ts"], {
    env: { ...process.env, RECEIVER_CERT: pki.cert, RECEIVER_KEY: pki.key },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const lines = createInterface({ input: receiver.stdout });
  const port = await new Promise<number>((resolve, reject) => {
    receiver.once("exit", (code) => reject(new Error(`receiver exited ${String(code)}`)));
    lines.once("line", (line) => resolve((JSON.parse(line) as { port: number }).port));
  });
  lines.on("line", (line) => {
    const receipt = JSON.parse(line) as Omit<Receipt, "round">;
    const round = (JSON.parse(receipt.body) as { data: { round: number } }).data.round;
    received.push({ ...receipt, round });
    const n = (counts.get(round) ?? 0) + 1;
    if (n === 1) firstAt.set(round, performance.now());
    counts.set(round, n);
    if (waiter !== null && waiter.round === round && n >= waiter.need) waiter.resolve();
  });
  const receiverUrl = (path: string) => `https://127.0.0.1:${port}${path}`;
  /** Rounds are numbered across both runs, so the receiver's count of one never mixes with another's. */
  let nextRound = 0;

  async function serviceRun(label: string, rounds: number, env: Record<string, string>): Promise<RunFigures> {
    const dir = mkdtempSync(join(tmpdir(), "bench-fanout-"));
    const config = loadConfig({
      STORE_URL: `sqlite:${join(dir, "mis.sqlite")}`,
      LOG_LEVEL: "silent",
      REPLAY_WARMUP_DAYS: "0",
      PORT: "0",
      HOST: "127.0.0.1",
      WEBHOOK_ALLOW_PRIVATE_TARGETS: "true",
      ...env,
    });
    const service = await buildService(config, {
      feed: await sharedReplayFeed(),
      capabilities: [sourceCapability, createWebhooksCapability({ ca: pki.ca })],
    });
    try {
      const servicePort = await service.listen();
      await service.warmedUp;
      const secrets = new Map<string, string>();
      for (let k = 0; k < SUBSCRIPTIONS / PER_KEY; k++) {
        const key = (await service.deps.keyIssuer.create("basic", `fan-out ${k}`, null)).apiKey;
        await Promise.all(
          Array.from({ length: PER_KEY }, async (_, i) => {
            const path = `/${label}${k * PER_KEY + i}`;
            const res = await fetch(`http://127.0.0.1:${servicePort}/v1/webhooks`, {
              method: "POST",
              headers: { "x-api-key": key, "content-type": "application/json" },
              body: JSON.stringify({ url: receiverUrl(path), events: ["verdict.new"] }),
            });
            if (res.status !== 201) throw new Error(`POST /v1/webhooks answered ${res.status}: ${await res.text()}`);
            secrets.set(path, ((await res.json()) as { secret: string }).secret);
          }),
        );
      }

      const seconds: number[] = [];
      const lost: number[] = [];
      let badSignatures = 0;
      for (let r = 1; r <= rounds; r++) {
        const round = ++nextRound;
        const all = new Promise<void>((resolve) => (waiter = { round, need: SUBSCRIPTIONS, resolve }));
        const started = performance.now();
        await service.deps.host.proxy(FanOutSource, "bench").raise({ round });
        const timedOut = await Promise.race([all.then(() => false), new Promise<boolean>((res) => setTimeout(() => res(true), 30_000).unref())]);
        const elapsed = (performance.now() - started) / 1000;
        const got = received.filter((d) => d.round === round);
        const distinct = new Set(got.map((d) => d.path)).size;
        lost.push(SUBSCRIPTIONS - distinct);
        seconds.push(timedOut ? Number.POSITIVE_INFINITY : elapsed);
        for (const d of got) {
          const secret = secrets.get(d.path);
          const expected = secret === undefined ? "" : createHmac("sha256", secret).update(d.body).digest("hex");
          if (d.signature !== expected) badSignatures++;
        }
        const first = ((firstAt.get(round) ?? Number.NaN) - started) / 1000;
        process.stderr.write(
          `webhook fan-out (${label}) round ${r}: ${distinct}/${SUBSCRIPTIONS} subscriptions reached in ${elapsed.toFixed(3)} s (first receipt at ${first.toFixed(3)} s)${timedOut ? " (timed out)" : ""}\n`,
        );
      }
      return { seconds, lost, badSignatures };
    } finally {
      await service.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  }

  try {
    const plain = await serviceRun("plain", 1 + WARM_ROUNDS, {});
    const sealed = await serviceRun("sealed", 1 + WARM_ROUNDS, { WEBHOOK_SECRET_KEYS: `bench:${randomBytes(32).toString("base64")}` });
    const cold = plain.seconds[0] ?? Number.POSITIVE_INFINITY;
    const warm = plain.seconds[1] ?? Number.POSITIVE_INFINITY;
    const lostTotal = plain.lost.slice(0, ROUNDS).reduce((a, b) => a + b, 0);
    const plainWarm = median(plain.seconds.slice(1));
    const sealedWarm = median(sealed.seconds.slice(1));
    const sealedLost = sealed.lost.reduce((a, b) => a + b, 0);
    return [
      result(
        `webhooks: fan-out of one event raised by an actor to ${SUBSCRIPTIONS} subscriptions, signed HTTPS to a local receiver, first event (cold actors)`,
        cold,
        "s",
        `<= ${TARGET_S} s to the last receipt, 0 lost`,
        cold <= TARGET_S && (plain.lost[0] ?? 1) === 0,
      ),
      result(`webhooks: the same fan-out, second event (warm)`, warm, "s", `<= ${TARGET_S} s to the last receipt, 0 lost`, warm <= TARGET_S && (plain.lost[1] ?? 1) === 0),
      result(`webhooks: fan-out deliveries lost over ${ROUNDS} events`, lostTotal, "deliveries", "0", lostTotal === 0),
      result("webhooks: fan-out deliveries whose X-SERVICE-Signature does not verify", plain.badSignatures + sealed.badSignatures, "deliveries", "0", plain.badSignatures + sealed.badSignatures === 0),
      report("webhooks: fan-out deliveries received in all (duplicates included)", received.length, "deliveries"),
      result(
        `webhooks: the same fan-out with secrets sealed at rest (WEBHOOK_SECRET_KEYS), warm, median of ${WARM_ROUNDS} (d), against stored as issued (b)`,
        sealedWarm,
        "s",
        "<= 1.25 ratio d/b, 0 lost",
        sealedWarm / plainWarm <= 1.25 && sealedLost === 0,
        plainWarm,
      ),
    ];
  } finally {
    const exited = new Promise((r) => receiver.once("exit", r));
    receiver.kill("SIGTERM");
    await exited;
  }
}
