import { z } from "zod";

export const healthSchema = z
  .object({
    status: z.string(),
    version: z.string(),
    environment: z.string(),
    timestamp: z.string(),
  })
  .meta({ id: "Health" });

export const readinessSchema = z.object({
  status: z.enum(["ok", "unavailable"]),
  checks: z.record(z.string(), z.enum(["ok", "failed"])),
  timestamp: z.string(),
});
