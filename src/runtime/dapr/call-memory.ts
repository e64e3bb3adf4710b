import { z } from "zod";

/**
 * The host's own state key for the answers of recent calls that changed their actor. daprd may
 * deliver one call twice: when placement rebalances it cancels the calls still running on a
 * moving host after drainOngoingCallTimeout and sends them again (its built-in actor retries),
 * and our proxy sends again a call answered "actor lock is closed" (MOVING) although the app may
 * still be running that call's turn, which then commits. Each call carries an id (CALL_ID_HEADER);
 * a turn that changes its actor writes the id and its answer in the same transaction as its
 * changes, so a second delivery of the id is answered from here instead of running again.
 */
export const CALL_MEMORY_KEY = "__calls";

/** The header our proxy sends each call's id in; daprd passes it on to the hosting replica. */
export const CALL_ID_HEADER = "mis-call-id";

/** What a call id may be: our proxy sends UUIDs. */
export const callIdSchema = z.string().regex(/^[A-Za-z0-9-]{8,64}$/);

/**
 * daprd's own retries end within seconds and our proxy's MOVING retries within a minute: ten
 * minutes covers both with room. The count bound keeps the key small on a busy actor.
 */
export const CALL_MEMORY_MS = 10 * 60_000;
export const CALL_MEMORY_MAX = 256;
/** Answers longer than this are not kept: a repeat of such a call is refused, not run again. */
export const CALL_ANSWER_MAX_CHARS = 4_096;

const callRecordSchema = z.object({
  id: z.string(),
  /** Wall-clock ms of the commit. */
  at: z.number(),
  /** The answer's JSON text; null when it was too long to keep. */
  answer: z.string().nullable(),
});

export const callMemorySchema = z.array(callRecordSchema);
export type CallRecord = z.infer<typeof callRecordSchema>;

/** The memory with one more committed call, minus what is older or beyond the count bound. */
export function remember(memory: readonly CallRecord[], id: string, answer: string, now: number): CallRecord[] {
  const kept = memory.filter((r) => r.id !== id && now - r.at < CALL_MEMORY_MS);
  kept.push({ id, at: now, answer: answer.length <= CALL_ANSWER_MAX_CHARS ? answer : null });
  return kept.slice(-CALL_MEMORY_MAX);
}
