import { z } from "zod";

/**
 * What one actor hands to the host that takes it over: its whole state and its reminders, with
 * each reminder's next firing as a delay on its own clock (the taking host schedules from its own
 * "now", so the two hosts need not agree on the instant of the handover).
 */
export const actorHandoverSchema = z.object({
  type: z.string().min(1),
  id: z.string().min(1),
  /** State key → the value's JSON text. */
  state: z.array(z.tuple([z.string().min(1), z.string()])),
  reminders: z.array(
    z.object({
      name: z.string().min(1),
      clock: z.enum(["wall", "market"]),
      dueInMs: z.number(),
      periodMs: z.number().positive().nullable(),
      payload: z.string(),
    }),
  ),
});

export type ActorHandover = z.infer<typeof actorHandoverSchema>;

/** The method name a host answers itself with `adopt`, before it looks at the actor's methods. */
export const ADOPT_METHOD = "__adopt";
