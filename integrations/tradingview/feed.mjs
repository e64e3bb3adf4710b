/* global process, console, fetch, setTimeout -- Node script; the flat ESLint config declares no Node globals for .mjs */
// Polls GET /v1/charting/signal and prints the payload line for market-intel.pine.
// Usage: MIS_BASE_URL=https://host MIS_API_KEY=... node integrations/tradingview/feed.mjs [--once]
// The key is read from the environment only, never from arguments (shell history, ps output).
const base = process.env.MIS_BASE_URL ?? "http://127.0.0.1:8080";
const key = process.env.MIS_API_KEY;
const FIELDS = ["verdict", "confidence", "regime", "dark_pool", "rsi", "ema_200", "btc_price", "ghost_status", "timestamp"];

/** The payload as "k=v;k=v", the format the indicator's Payload input parses. */
export function toPayloadLine(body) {
  return FIELDS.map((f) => `${f}=${body[f] ?? ""}`).join(";");
}

async function poll() {
  const res = await fetch(`${base}/v1/charting/signal`, { headers: { "x-api-key": key } });
  const body = await res.json();
  if (!res.ok) {
    console.error(`HTTP ${res.status}: ${JSON.stringify(body.detail ?? body)}`);
    const retry = Number(res.headers.get("retry-after"));
    return Number.isFinite(retry) && retry > 0 ? retry : 60;
  }
  console.log(toPayloadLine(body));
  // The payload is cached 30 s server-side; polling faster only spends quota.
  return Math.max(30, Number(body.cache_ttl_seconds) || 30);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  if (!key) {
    console.error("Set MIS_API_KEY to your API key (any tier).");
    process.exit(2);
  }
  const once = process.argv.includes("--once");
  for (;;) {
    const wait = await poll();
    if (once) break;
    await new Promise((r) => setTimeout(r, wait * 1000));
  }
}
