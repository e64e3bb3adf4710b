import { z } from "zod";

/**
 * The answers of an actor's recent calls that changed it, kept in its own state. daprd may
 * deliver one call twice: when placement rebalances it cancels the calls still running on a
 * moving host after drainOngoingCallTimeout and sends them again (its built-in actor retries),
 * and our proxy sends again a call answered "actor lock is closed" although the app may still be
 * running that call's turn, which then commits. Each call carries an id (CALL_ID_HEADER); a turn
 * that changes its actor writes the id and its answer in the same transaction as its changes, so
 * a second delivery of the id is answered from here instead of running again.
 *
 * The memory is two buckets under two keys, written alternately: a turn rewrites only the
 * current bucket (at most CALL_BUCKET_SIZE calls) and, once it is full, starts the other one
 * afresh over the older calls. Between CALL_BUCKET_SIZE and twice that many calls are remembered
 * while a turn writes half that on average: one list of them all, rewritten by every turn, cost
 * a third of the Dapr host's throughput (bench/dapr-actors.bench.ts).
 */
export const CALL_MEMORY_KEYS = ["__calls0", "__calls1"] as const;

/** The header our proxy sends each call's id in; daprd passes it on to the hosting replica. */
export const CALL_ID_HEADER = "mis-call-id";

/** What a call id may be: our proxy sends 16 base64url characters (96 random bits). */
export const callIdSchema = z.string().regex(/^[A-Za-z0-9_-]{8,64}$/);

/**
 * A repeat comes back within seconds (daprd's retries) or a minute (ours), after at most the
 * other calls waiting on the same actor then: 128 or more covers a hundred calls at once.
 */
export const CALL_BUCKET_SIZE = 128;
/** Answers longer than this are not kept: a repeat of such a call is refused, not run again. */
export const CALL_ANSWER_MAX_CHARS = 4_096;

/** One bucket: its generation (the higher one is current) and [id, answer or null] pairs. */
export const callBucketSchema = z.object({
  generation: z.number().int().nonnegative(),
  calls: z.array(z.tuple([z.string(), z.string().nullable()])),
});
export type CallBucket = z.infer<typeof callBucketSchema>;

/** An actor's call memory as read at activation: one bucket per key, absent ones empty. */
export type CallMemory = readonly [CallBucket, CallBucket];

export const emptyCallMemory = (): CallMemory => [
  { generation: 0, calls: [] },
  { generation: 0, calls: [] },
];

/** The answer remembered for `id`: text, null when it was too long to keep, undefined when none. */
export function recalled(memory: CallMemory, id: string): string | null | undefined {
  for (const bucket of memory) {
    const hit = bucket.calls.find(([callId]) => callId === id);
    if (hit) return hit[1];
  }
  return undefined;
}

/** The bucket to write for one more committed call: which key, and its new content. */
export function remember(memory: CallMemory, id: string, answer: string): { readonly slot: 0 | 1; readonly bucket: CallBucket } {
  const kept = answer.length <= CALL_ANSWER_MAX_CHARS ? answer : null;
  const current: 0 | 1 = memory[1].generation > memory[0].generation ? 1 : 0;
  const bucket = memory[current];
  if (bucket.calls.length < CALL_BUCKET_SIZE) return { slot: current, bucket: { generation: bucket.generation, calls: [...bucket.calls, [id, kept]] } };
  const other: 0 | 1 = current === 0 ? 1 : 0;
  return { slot: other, bucket: { generation: bucket.generation + 1, calls: [[id, kept]] } };
}

/** The memory once `written` committed in `slot`. */
export function withBucket(memory: CallMemory, slot: 0 | 1, written: CallBucket): CallMemory {
  return slot === 0 ? [written, memory[1]] : [memory[0], written];
}
