import { describe, expect, it } from "vitest";
import { nestsDeeperThan } from "../../../src/http/middleware/json-depth.js";

const bytes = (text: string) => Buffer.from(text, "utf8");

describe("nestsDeeperThan", () => {
  it("counts arrays and objects alike, up to and past the limit", () => {
    expect(nestsDeeperThan(bytes('{"a":[{"b":[1]}]}'), 4)).toBe(false);
    expect(nestsDeeperThan(bytes('{"a":[{"b":[1]}]}'), 3)).toBe(true);
    expect(nestsDeeperThan(bytes(`${"[".repeat(33)}${"]".repeat(33)}`), 32)).toBe(true);
    expect(nestsDeeperThan(bytes(`${"[".repeat(32)}${"]".repeat(32)}`), 32)).toBe(false);
  });

  it("reads brackets inside strings as text, escaped quotes included", () => {
    expect(nestsDeeperThan(bytes(JSON.stringify({ s: "[[[[[[[[", t: 'a \\" [[[[[[ "' })), 1)).toBe(false);
    expect(nestsDeeperThan(bytes('["\\\\", [[1]]]'), 2)).toBe(true);
  });

  it("is not misled by multi-byte characters", () => {
    expect(nestsDeeperThan(bytes(JSON.stringify({ s: "Žluťoučký kůň [ 🐎" })), 1)).toBe(false);
  });

  it("counts unclosed and sibling nesting by depth, not by total brackets", () => {
    expect(nestsDeeperThan(bytes("[[],[],[],[],[],[]]"), 2)).toBe(false);
    expect(nestsDeeperThan(bytes("[".repeat(1000)), 32)).toBe(true);
  });
});
