import { z } from "zod";

/** The part of V8's .cpuprofile (written by `node --cpu-prof`) this summary reads. */
const cpuProfileSchema = z.object({
  nodes: z.array(
    z.object({
      id: z.number(),
      callFrame: z.object({ functionName: z.string(), url: z.string(), lineNumber: z.number() }),
      children: z.array(z.number()).optional(),
    }),
  ),
  startTime: z.number(),
  endTime: z.number(),
  samples: z.array(z.number()),
  timeDeltas: z.array(z.number()),
});
export type CpuProfile = z.infer<typeof cpuProfileSchema>;

export function parseCpuProfile(json: string): CpuProfile {
  return cpuProfileSchema.parse(JSON.parse(json));
}

/** Where the main thread's time went, by what it was doing. */
export type Activity = "idle" | "gc" | "actors and domain" | "keys and quotas" | "http" | "other";

/** The app's own code, by folder: what runs on the service clock, and what each request runs. */
const ACTOR_WORK = /\/src\/(actors|domain\/(?!access)|feeds|runtime|llm)\//;
const ACCESS_WORK = /\/src\/(domain\/access|application\/(usage-limiter|key-verifier)|store\/sqlite\/access)/;
const HTTP_WORK = /\/src\/(http|logging|observability)\/|node_modules\/(express|router|helmet|on-finished|finalhandler)\/|node:_http_/;

/**
 * Each sample by the innermost app frame that names an activity: a sample inside an actor's
 * turn counts as the actor's even when its leaf is a store call, and request handling counts as
 * http down to the socket write. Idle and GC are V8's own pseudo-frames.
 */
function activityOf(stack: readonly CpuProfile["nodes"][number]["callFrame"][]): Activity {
  const leaf = stack[0]?.functionName;
  if (leaf === "(idle)") return "idle";
  if (leaf === "(garbage collector)") return "gc";
  for (const frame of stack) {
    if (ACTOR_WORK.test(frame.url)) return "actors and domain";
    if (ACCESS_WORK.test(frame.url)) return "keys and quotas";
  }
  return stack.some((f) => HTTP_WORK.test(f.url)) ? "http" : "other";
}

export interface ProfileSummary {
  readonly windowMs: number;
  readonly msBy: Readonly<Record<Activity, number>>;
  /** The longest run of busy samples (no idle sample between) and what filled it, ms by activity. */
  readonly longestBusyMs: number;
  readonly longestBusyBy: Readonly<Record<Activity, number>>;
  /** Busy runs of at least LONG_RUN_MS, counted by the activity that filled most of each. */
  readonly longRunsBy: Readonly<Record<Activity, number>>;
}

/** A run this long holds a request for as long as the p99 target allows (10 ms). */
const LONG_RUN_MS = 10;

function dominant(by: Readonly<Record<Activity, number>>): Activity {
  return (Object.entries(by) as [Activity, number][]).reduce((a, b) => (b[1] > a[1] ? b : a))[0];
}

const none = (): Record<Activity, number> => ({ idle: 0, gc: 0, "actors and domain": 0, "keys and quotas": 0, http: 0, other: 0 });

/** Sums the last `windowMs` of a profile (the measured load; the process's start-up comes before). */
export function summarise(profile: CpuProfile, windowMs: number): ProfileSummary {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const stackOf = (id: number) => {
    const out: CpuProfile["nodes"][number]["callFrame"][] = [];
    for (let x: number | undefined = id; x !== undefined; x = parent.get(x)) {
      const node = byId.get(x);
      if (node) out.push(node.callFrame);
    }
    return out;
  };
  const from = profile.endTime - windowMs * 1000;
  const msBy = none();
  const longRunsBy = none();
  let run = { ms: 0, by: none() };
  let longest = run;
  const endRun = () => {
    if (run.ms >= LONG_RUN_MS) longRunsBy[dominant(run.by)] += 1;
    run = { ms: 0, by: none() };
  };
  let t = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    t += profile.timeDeltas[i] ?? 0;
    // A sample stands for the time until the next one.
    const ms = (profile.timeDeltas[i + 1] ?? 0) / 1000;
    if (t < from) continue;
    const activity = activityOf(stackOf(profile.samples[i] ?? -1));
    msBy[activity] += ms;
    if (activity === "idle") {
      endRun();
      continue;
    }
    run.ms += ms;
    run.by[activity] += ms;
    if (run.ms > longest.ms) longest = run;
  }
  endRun();
  return { windowMs, msBy, longestBusyMs: longest.ms, longestBusyBy: { ...longest.by }, longRunsBy };
}
