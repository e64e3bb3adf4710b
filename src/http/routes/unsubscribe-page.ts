import express, { type Express, type Request, type Response, type NextFunction } from "express";
import { z } from "zod";
import { UNSUBSCRIBE_TOKEN } from "../../domain/access/unsubscribe-token.js";
import type { NewsletterService } from "../../application/newsletter.js";

const linkQuery = z.object({ token: z.string().regex(UNSUBSCRIBE_TOKEN) });

/**
 * One-click bodies (RFC 8058: `List-Unsubscribe=One-Click`, form-encoded or multipart) are read
 * up to the API's limit and not looked at: the token in the address is what decides.
 */
const readAnyBody = express.raw({ type: () => true, limit: "64kb" });

/**
 * The welcome e-mail's unsubscribe link, for people and for mail clients. A page, not an API
 * route (like the dashboard it is not in the OpenAPI document): GET asks before it acts, because
 * mail scanners open links; POST, from the page's button or a mail client's one-click
 * unsubscribe, forgets the subscriber. Never cached; the token is never logged (the access log
 * keeps no query string) and never leaves in a Referer (helmet's `no-referrer`).
 */
export function mountUnsubscribePage(app: Express, newsletter: Pick<NewsletterService, "unsubscribe">): void {
  app.get("/unsubscribe", (req, res) => {
    if (!linkQuery.safeParse(req.query).success) return page(res, 400, incomplete);
    // No action attribute: the form posts to this very address, token included, under any path prefix.
    page(res, 200, {
      title: "Unsubscribe from Market Intelligence?",
      body: `<p>You will get no more e-mail from us at this address.</p>\n<form method="post"><button type="submit">Unsubscribe</button></form>`,
    });
  });
  app.post("/unsubscribe", readAnyBody, (req: Request, res: Response, next: NextFunction) => {
    const query = linkQuery.safeParse(req.query);
    if (!query.success) return page(res, 400, incomplete);
    newsletter.unsubscribe(query.data.token).then(
      (removed) =>
        removed
          ? page(res, 200, { title: "You are unsubscribed", body: "<p>This address gets no more e-mail from us.</p>" })
          : page(res, 404, {
              title: "Nothing to unsubscribe",
              body: "<p>No subscription goes with this link: it was used already, or the address was removed.</p>",
            }),
      next,
    );
  });
}

const incomplete = {
  title: "This link is incomplete",
  body: "<p>Open the whole link from the e-mail; some mail programs cut long links at the end of a line.</p>",
};

/** A page of fixed text: nothing the caller sent is written into it. */
function page(res: Response, status: number, content: { title: string; body: string }): void {
  res
    .status(status)
    .set({ "Cache-Control": "no-store", "X-Robots-Tag": "noindex" })
    .type("html")
    .send(
      `<!doctype html>\n<html lang="en">\n<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><link rel="icon" href="data:,"><title>${content.title}</title></head>\n<body>\n<main>\n<h1>${content.title}</h1>\n${content.body}\n</main>\n</body>\n</html>\n`,
    );
}
