import { z } from "zod";

export const healthSchema = z
  .object({
    status: z.string(),
    version: z.string(),
    environment: z.string(),
    timestamp: z.string(),
  })
  .meta({ id: "Health" });

/** `pending`: on its way (start-up and warm-up); `failed`: not (a stalled actor host, a start-up failing and retried). */
export const readinessCheckSchema = z.enum(["ok", "pending", "failed"]);
export type ReadinessCheck = z.infer<typeof readinessCheckSchema>;

export const readinessSchema = z.object({
  status: z.enum(["ok", "unavailable"]),
  checks: z.record(z.string(), readinessCheckSchema),
  timestamp: z.string(),
});
