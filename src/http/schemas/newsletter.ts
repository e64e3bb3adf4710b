import { z } from "zod";

/** SPEC.md "Newsletter request"; address validity (400) is checked after the size rules (422). */
export const newsletterBody = z.object({
  email: z.string().max(254),
  name: z.string().max(100).nullable().optional(),
  website: z.string().max(500).default(""),
});

export const messageSchema = z.object({ message: z.string() });
