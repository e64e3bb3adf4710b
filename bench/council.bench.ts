import autocannon from "autocannon";
import { report, result, type BenchResult } from "./result.js";
import { startChildTarget, stopChildTarget, type ChildTarget } from "./child-target.js";
import { LLAMA_MODEL, startLlamaServer } from "../test/support/llama-server.js";

/**
 * One full BTC council session (six agents and the Chief Judge) against llama-server with
 * SmolLM2-135M at `-t 1` (DECISIONS 6): wall time and tokens per second. In the same run, the
 * keyed cached route's p99 at a fixed offered rate, idle and while the session runs in the same
 * service process: the councils must not starve the HTTP path on a 2-core host.
 */
const RATE = Number(process.env.BENCH_COUNCIL_RATE ?? 200);
const CONNECTIONS = 10;
const LOAD_S = Number(process.env.BENCH_COUNCIL_LOAD_SECONDS ?? 15);

interface Target extends ChildTarget {
  readonly key: string;
}

/** The council target always creates a key for its keyed route. */
async function startTarget(args: string[]): Promise<Target> {
  const t = await startChildTarget("bench/council/target.ts", args);
  if (t.key === undefined) throw new Error("the council target announced no API key");
  return { ...t, key: t.key };
}

interface Load {
  readonly p99: number;
  readonly p50: number;
  readonly rps: number;
  readonly okShare: number;
}

async function load(t: Target): Promise<Load> {
  const r = await autocannon({
    url: `http://127.0.0.1:${t.port}/v1/bench/cached`,
    connections: CONNECTIONS,
    overallRate: RATE,
    duration: LOAD_S,
    headers: { "x-api-key": t.key },
  });
  const total = r.requests.total;
  return { p99: r.latency.p99, p50: r.latency.p50, rps: r.requests.average, okShare: total === 0 ? 0 : r["2xx"] / total };
}

interface Session {
  readonly done: boolean;
  readonly mode: string | null;
  readonly agents_succeeded: number | null;
  readonly calls: number;
  readonly prompt_tokens: number;
  readonly completion_tokens: number;
  readonly ms: number;
}

async function session(t: Target, method: "POST" | "GET"): Promise<Session> {
  const res = await fetch(`http://127.0.0.1:${t.port}/v1/bench/council-session`, { method });
  return (await res.json()) as Session;
}

export async function run(): Promise<BenchResult[]> {
  const llama = await startLlamaServer();
  let target: Target | undefined;
  try {
    target = await startTarget([llama.baseUrl, llama.apiKey, LLAMA_MODEL]);
    const t = target;
    // Warm both: the model's first request loads caches (~5 s), the route its first cache entry.
    await autocannon({ url: `http://127.0.0.1:${t.port}/v1/bench/cached`, connections: CONNECTIONS, duration: 2, headers: { "x-api-key": t.key } });
    await session(t, "POST");
    for (let s = await session(t, "GET"); !s.done; s = await session(t, "GET")) await new Promise((r) => setTimeout(r, 500));

    const idleBefore = await load(t);
    const started = Date.now();
    await session(t, "POST");
    const busy = await load(t);
    let s = await session(t, "GET");
    while (!s.done) {
      await new Promise((r) => setTimeout(r, 250));
      s = await session(t, "GET");
    }
    const wallS = (Date.now() - started) / 1000;
    const idleAfter = await load(t);
    const idleP99 = (idleBefore.p99 + idleAfter.p99) / 2;
    const line = (n: string, l: Load) => `${n}: ${Math.round(l.rps)} req/s offered ${RATE}, p50 ${l.p50} ms, p99 ${l.p99} ms, 2xx ${(l.okShare * 100).toFixed(2)}%`;
    process.stderr.write(`${line("idle before", idleBefore)}\n${line("during session", busy)}\n${line("idle after", idleAfter)}\n`);
    process.stderr.write(`session: mode ${s.mode}, ${s.agents_succeeded} model votes, ${s.calls} calls, ${s.prompt_tokens}+${s.completion_tokens} tokens, ${s.ms} ms (${wallS.toFixed(1)} s observed)\n`);
    const sessionS = s.ms / 1000;
    if (busy.p99 === 0 || idleP99 === 0) throw new Error("no latency measured");
    return [
      result("council.btc_session_wall", sessionS, "s", "<= 60 s (llama-server -t 1, SmolLM2-135M)", sessionS <= 60),
      report("council.btc_session_calls", s.calls, "calls"),
      report("council.btc_session_model_votes", s.agents_succeeded ?? 0, "agents"),
      report("council.btc_session_completion_tokens_per_s", s.completion_tokens / sessionS, "tokens/s"),
      report("council.btc_session_total_tokens_per_s", (s.prompt_tokens + s.completion_tokens) / sessionS, "tokens/s"),
      report("council.btc_session_tokens", s.prompt_tokens + s.completion_tokens, "tokens"),
      report("council.keyed_cached_p99_idle", idleP99, "ms"),
      result("council.keyed_cached_p99_during_session", busy.p99, "ms", "<= 2x idle p99 (same run)", busy.p99 <= 2 * idleP99, idleP99),
      result("council.keyed_cached_2xx_share_during_session", busy.okShare * 100, "%", ">= 99 %", busy.okShare >= 0.99),
    ];
  } finally {
    if (target) await stopChildTarget(target);
    await llama.stop();
  }
}
