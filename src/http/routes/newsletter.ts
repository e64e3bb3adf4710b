import { z } from "zod";
import { EMAIL_ADDRESS, EMAIL_MAX_LENGTH } from "../../domain/access/email-address.js";
import { defineRoute, type Route } from "../route.js";
import { messageSchema, newsletterBody } from "../schemas/newsletter.js";
import type { AppDeps } from "../app-deps.js";
import { ApiError } from "../error-codes.js";

const emailFormat = z.email({ pattern: EMAIL_ADDRESS }).max(EMAIL_MAX_LENGTH);
const THANKS = "Thanks for subscribing! Check your inbox for a welcome e-mail.";

export function newsletterRoutes(deps: AppDeps): Route[] {
  return [
    defineRoute({
      method: "post",
      path: "/v1/newsletter/subscribe",
      summary: "Subscribe to the newsletter (3 requests per IP per sliding hour)",
      description:
        "A new address is stored and welcomed by e-mail; an address already subscribed gets the same 200 and no second e-mail, so the endpoint reveals nothing about who is subscribed.",
      tags: ["newsletter"],
      access: { kind: "public", ipLimit: { name: "newsletter", limit: 3, windowSeconds: 3600, sliding: true, refusal: "newsletter_rate_limited", counts: "every-request" } },
      body: newsletterBody,
      response: messageSchema,
      // SPEC.md: the newsletter's 429 is `{detail: string}`, unlike the keyed routes'.
      errors: ["newsletter_rejected", "invalid_email", "validation_failed", "newsletter_rate_limited"],
      handler: async ({ body }) => {
        // The honeypot field is invisible to people; only bots fill it.
        if (body.website !== "") throw new ApiError("newsletter_rejected");
        const email = body.email.trim().toLowerCase();
        if (!emailFormat.safeParse(email).success) throw new ApiError("invalid_email");
        await deps.newsletter.subscribe(email, body.name?.trim() || null);
        return { message: THANKS };
      },
    }),
  ];
}
