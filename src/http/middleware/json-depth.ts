/**
 * How deep a request body may nest. Our bodies nest three levels at most; JSON.parse of 32,000
 * levels (100 bytes gzipped, inside the 64 KiB cap once inflated) costs ~3 ms of the one event
 * loop, ~100 times a shallow body's, and a body refused by validation is counted by no limit.
 */
export const MAX_JSON_DEPTH = 32;

/**
 * Thrown from body-parser's `verify` for a body in another charset than UTF-8 (RFC 8259: JSON
 * between systems is UTF-8). body-parser accepts any `utf-*` and hands `verify` the undecoded
 * bytes, where a UTF-16 character such as U+2200 holds a 0x22 byte and the depth scan lost
 * track of strings: 10,000 levels passed. Answered as a 415.
 */
export class NotUtf8Error extends Error {
  constructor(charset: string) {
    super(`request body charset ${charset} is not UTF-8`);
    this.name = "NotUtf8Error";
  }
}

/** Thrown from body-parser's `verify`, before the body is parsed: answered as a 422. */
export class JsonTooDeepError extends Error {
  constructor() {
    super(`request body nests deeper than ${MAX_JSON_DEPTH} levels`);
    this.name = "JsonTooDeepError";
  }
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;

/**
 * True when the UTF-8 text nests arrays and objects deeper than `max` (brackets inside strings
 * do not count). One pass over the bytes, no allocation: the body is checked before it is parsed.
 * Bytes of a multi-byte UTF-8 character are all ≥ 0x80, so none reads as a bracket or a quote.
 */
export function nestsDeeperThan(bytes: Uint8Array, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    if (inString) {
      if (b === BACKSLASH) i++;
      else if (b === QUOTE) inString = false;
    } else if (b === QUOTE) inString = true;
    else if (b === OPEN_ARRAY || b === OPEN_OBJECT) {
      if (++depth > max) return true;
    } else if (b === CLOSE_ARRAY || b === CLOSE_OBJECT) depth--;
  }
  return false;
}
