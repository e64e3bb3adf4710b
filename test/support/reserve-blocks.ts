import { openStore } from "../../src/store/open-store.js";

/**
 * One process of the concurrent-reservation contract test: from `startAt` (wall ms, so both
 * processes start together) it leases blocks of 1..16 calls from one window until the window
 * refuses, giving one call back after every fifth block and pausing up to a millisecond between. Prints what it was granted and gave
 * back, and the highest count the store ever reported, as one JSON line.
 */
const [storeUrl, bucket, limitText, expiresAtText, startAtText, seedText] = process.argv.slice(2);
const window = { bucket: String(bucket), limit: Number(limitText), expiresAt: Number(expiresAtText) };
const store = await openStore(String(storeUrl));
let seed = Number(seedText);
const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
await new Promise((resolve) => setTimeout(resolve, Math.max(0, Number(startAtText) - Date.now())));
let granted = 0;
let released = 0;
let maxCount = 0;
for (let n = 1; ; n++) {
  const now = Date.now();
  const r = await store.counters.reserve(window, 1 + Math.floor(random() * 16), now);
  maxCount = Math.max(maxCount, r.count);
  if (r.granted === 0) break;
  granted += r.granted;
  // A pause between blocks (as between a process's requests): without it one process holds
  // SQLite's write lock back to back while the other's busy handler sleeps, and nothing races.
  await new Promise((resolve) => setTimeout(resolve, Math.floor(random() * 2)));
  if (n % 5 === 0) {
    maxCount = Math.max(maxCount, await store.counters.release(window, 1, now));
    released += 1;
  }
}
await store.close();
process.stdout.write(`${JSON.stringify({ granted, released, maxCount })}\n`);
