import { isIP } from "node:net";

/** A host only this machine reaches: `localhost`, a `.localhost` name, 127.0.0.0/8 or ::1. */
function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, "").toLowerCase();
  if (host === "localhost" || host.endsWith(".localhost")) return true;
  if (isIP(host) === 4) return host.startsWith("127.");
  return host === "::1";
}

/**
 * Why PUBLIC_BASE_URL, left at a loopback address, breaks what the service sends out; null when it
 * does not. With SMTP_URL set, every welcome e-mail's unsubscribe link starts with it, and a link
 * to the reader's own machine leads nowhere. A warning, not a refusal: a developer with a local
 * mail catcher reads the mail on the same machine.
 */
export function publicBaseUrlWarning(config: { readonly PUBLIC_BASE_URL: string; readonly SMTP_URL?: string | undefined }): string | null {
  if (config.SMTP_URL === undefined || !isLoopbackHost(new URL(config.PUBLIC_BASE_URL).hostname)) return null;
  return "PUBLIC_BASE_URL is a loopback address while SMTP_URL is set: the unsubscribe link in every welcome e-mail points at the reader's own machine; set PUBLIC_BASE_URL to the address readers reach the service at";
}
