import fetch from "node-fetch";
import type { Logger } from "../logging/logger.js";

export interface OwnerNotifier {
  notify(text: string): Promise<void>;
}

/**
 * Slack/Discord-style incoming webhook: POST {text, content} as JSON, 5 s timeout. The text
 * quotes a subscriber's domain, which anyone picks (`x@everyone.io`), and Discord pings the
 * whole channel for a literal "@everyone" or "@here" unless `allowed_mentions` says otherwise;
 * Slack ignores the field.
 */
export function webhookOwnerNotifier(url: string): OwnerNotifier {
  return {
    async notify(text) {
      const res = await fetch(url, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ text, content: text, allowed_mentions: { parse: [] } }),
        signal: AbortSignal.timeout(5000),
        redirect: "error",
      });
      // The status as a field too: logs keep fields of a failure, never its message.
      if (!res.ok) throw Object.assign(new Error(`owner notification answered HTTP ${res.status}`), { status: res.status });
    },
  };
}

export function logOwnerNotifier(logger: Logger): OwnerNotifier {
  return {
    async notify(text) {
      logger.info({ notification: text }, "owner notification (OWNER_NOTIFY_URL is not configured)");
    },
  };
}
