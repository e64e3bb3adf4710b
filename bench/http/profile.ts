import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openLoop, quantile } from "./open-loop.js";
import { pacedLoad } from "./paced-load.js";
import { startChildTarget, stopChildTarget } from "../child-target.js";
import { parseCpuProfile, summarise, type Activity, type ProfileSummary } from "./cpu-profile.js";

/**
 * Where a target's time goes under the HTTP bench's fixed-rate loads: each target (bare Express,
 * then the keyed cached route of the service on SQLite) runs under `node --cpu-prof` while it is
 * offered 1,000 req/s as in the bench's two latency phases (autocannon's per-second bursts, then
 * evenly paced; a fresh process for each), and its main thread's profile is summed by activity
 * (see cpu-profile.ts). Answers what the bench's long event-loop blocks are made of:
 * request handling, GC, or an actor's turn. Not part of `npm run bench`: the profiler itself
 * costs CPU, so these figures explain the bench's, they do not replace them.
 *
 *   npx tsx bench/http/profile.ts
 */
const RATE = 1_000;
const ROUNDS = 3;
const SECONDS = 10;
const CONNECTIONS = 20;
/** Samples every 250 µs (the default is 1 ms), so a 10 ms block holds some forty of them. */
const INTERVAL_US = 250;

type Generator = "autocannon" | "paced";

async function offer(generator: Generator, url: string, headers: Record<string, string>, seconds: number): Promise<number[]> {
  if (generator === "paced") return (await pacedLoad(url, headers, RATE, seconds)).latenciesMs;
  return (await openLoop(url, headers, RATE, seconds, CONNECTIONS)).latenciesMs;
}

async function profileTarget(kind: "express" | "service", generator: Generator): Promise<{ summary: ProfileSummary; p99: number; p999: number }> {
  const dir = mkdtempSync(join(tmpdir(), "bench-profile-"));
  try {
    const storeArgs = kind === "service" ? [`sqlite:${join(dir, "mis.sqlite")}`] : [];
    const target = await startChildTarget("bench/http/target.ts", [kind, ...storeArgs], ["--cpu-prof", `--cpu-prof-dir=${dir}`, "--cpu-prof-interval", String(INTERVAL_US)]);
    const { port, key } = target;
    const url = `http://127.0.0.1:${port}/v1/bench/cached`;
    const headers: Record<string, string> = key === undefined ? {} : { "x-api-key": key };
    await offer(generator, url, headers, 2);
    const latencies: number[] = [];
    for (let r = 0; r < ROUNDS; r++) latencies.push(...(await offer(generator, url, headers, SECONDS)));
    await stopChildTarget(target);
    // CPU.<date>.<time>.<pid>.<thread>.<seq>.cpuprofile: thread 0 is the main thread.
    const main = readdirSync(dir).find((f) => f.endsWith(".cpuprofile") && f.split(".")[4] === "0");
    if (main === undefined) throw new Error(`no main-thread profile from ${kind}`);
    // The load ends when the target is told to stop; its shutdown is a fraction of a second.
    const summary = summarise(parseCpuProfile(readFileSync(join(dir, main), "utf8")), ROUNDS * SECONDS * 1000);
    const sorted = latencies.sort((a, b) => a - b);
    return { summary, p99: quantile(sorted, 0.99), p999: quantile(sorted, 0.999) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const ACTIVITIES: readonly Activity[] = ["http", "keys and quotas", "actors and domain", "gc", "other", "idle"];
for (const generator of ["autocannon", "paced"] as const) {
  const express = await profileTarget("express", generator);
  const service = await profileTarget("service", generator);
  const row = (label: string, f: (s: ProfileSummary) => number, digits = 0) =>
    `| ${label} | ${f(express.summary).toFixed(digits)} | ${f(service.summary).toFixed(digits)} |`;
  const lines = [
    `${generator === "paced" ? "Evenly paced" : "Open loop (autocannon)"} at ${RATE} req/s, ${ROUNDS} rounds of ${SECONDS} s, under the profiler (main thread, ms in the last ${ROUNDS * SECONDS} s):`,
    "",
    "| | bare Express | service, keyed cached (SQLite) |",
    "|---|---|---|",
    ...ACTIVITIES.map((a) => row(a, (s) => s.msBy[a])),
    row("busy (all but idle)", (s) => ACTIVITIES.reduce((sum, a) => (a === "idle" ? sum : sum + s.msBy[a]), 0)),
    // Under autocannon's bursts this is not one event-loop block: back-to-back turns never wait.
    row("longest run without an idle sample, ms", (s) => s.longestBusyMs, 1),
    ...ACTIVITIES.filter((a) => a !== "idle").map((a) => row(`  of which ${a}`, (s) => s.longestBusyBy[a], 1)),
    ...ACTIVITIES.filter((a) => a !== "idle").map((a) => row(`runs of 10 ms or more, mostly ${a}`, (s) => s.longRunsBy[a])),
    `| p99 / p99.9 latency, ms | ${express.p99.toFixed(1)} / ${express.p999.toFixed(1)} | ${service.p99.toFixed(1)} / ${service.p999.toFixed(1)} |`,
    "",
  ];
  process.stdout.write(`${lines.join("\n")}\n`);
}
