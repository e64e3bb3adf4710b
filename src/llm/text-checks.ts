/**
 * Whether a model's reply goes round in a loop. A small model caught in one writes "The market is
 * bullish. The market is bearish. The market is bullish. …" or "1.0000…" until a length cap
 * closes the string or the token cap cuts the reply (seen from SmolLM2-135M through
 * llama-server's schema-enforced replies, 2026-12-04).
 */

/** Words and numbers, lower-cased: "120Z.120Z" is two words, "MVRV_ZSCORE" two. */
function words(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** Below this many words a text is too short for a loop to show (a short thesis may repeat "BTC"). */
const LOOP_MIN_WORDS = 16;
/** Runs of this many words: long enough that ordinary prose rarely repeats one. */
const RUN = 4;
/**
 * Fewer distinct four-word runs than this share of all of them is a loop, exact or not. Prose of
 * three sentences scores 0.85–1; the looping replies seen scored 0.04–0.6.
 */
const LOOP_MAX_DISTINCT_SHARE = 0.5;
/** The longest unit, in words, whose back-to-back copies count as a loop. */
const MAX_PERIOD_WORDS = 25;
/** Copies after the first must cover at least this many words: "very, very, very" is style. */
const MIN_REPEAT_WORDS = 8;

/**
 * A unit of one to eight characters written twenty times in a row: "1.0000000…" and
 * ".120Z.120Z…" loop inside one word, where word runs cannot see it. No prose does this.
 * The unit starts with a visible character: a pretty-printed reply may indent deeply.
 */
const STUTTER = /((?=\S)[\s\S]{1,8}?)\1{19,}/;

/** Most four-word runs are repeats (catches loops that vary a word between copies). */
function mostlyRepeats(w: readonly string[]): boolean {
  if (w.length < LOOP_MIN_WORDS) return false;
  const runs = w.length - RUN + 1;
  const distinct = new Set<string>();
  for (let i = 0; i < runs; i++) distinct.add(w.slice(i, i + RUN).join(" "));
  return distinct.size / runs < LOOP_MAX_DISTINCT_SHARE;
}

/**
 * Three copies of one unit back to back ("the market is uncertain; the market is uncertain; the
 * market is uncertain"), found as a stretch where each word equals the one a period earlier. A
 * short loop after a sentence of sense can keep the share above half (0.50 and 0.53 were seen);
 * parallel prose ("BTC is above its average, ETH is above its average") breaks the stretch at
 * each new subject.
 */
function copiesBackToBack(w: readonly string[]): boolean {
  for (let period = 1; period <= MAX_PERIOD_WORDS; period++) {
    const needed = Math.max(2 * period, MIN_REPEAT_WORDS);
    let stretch = 0;
    for (let i = period; i < w.length; i++) {
      stretch = w[i] === w[i - period] ? stretch + 1 : 0;
      if (stretch >= needed) return true;
    }
  }
  return false;
}

/**
 * How much of a reply is read. A loop shows within its first few hundred characters, and a reply
 * within its token caps is a few thousand; reading a provider's whole 256 KB would cost ~50 ms of
 * the event loop on a crafted reply (8 KB: ~1 ms).
 */
const LOOK_CHARS = 8_000;

/** Whether `text` goes round in a loop: a character stutter, copies back to back, or mostly repeats. */
export function repeatsItself(text: string): boolean {
  const head = text.slice(0, LOOK_CHARS);
  if (STUTTER.test(head)) return true;
  const w = words(head);
  return copiesBackToBack(w) || mostlyRepeats(w);
}
