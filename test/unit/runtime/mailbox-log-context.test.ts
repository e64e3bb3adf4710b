import { describe, expect, it } from "vitest";
import { Mailbox } from "../../../src/runtime/mailbox.js";
import { logContextFields, runInRequest } from "../../../src/logging/log-context.js";

describe("an actor's mailbox and the callers' log context", () => {
  it("runs each queued turn as its own caller's work, not as the work of the caller that started the queue", async () => {
    const box = new Mailbox();
    const seen: unknown[] = [];
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const turn = (wait: boolean) => async () => {
      if (wait) await held;
      seen.push(logContextFields().req_id ?? "none");
    };
    // Request A's turn starts the drain and holds it; B's and a reminder's queue behind it.
    const a = runInRequest("req-A", () => box.enqueue(turn(true)));
    const b = runInRequest("req-B", () => box.enqueue(turn(false)));
    const reminder = box.enqueue(turn(false));
    release();
    await Promise.all([a, b, reminder]);
    expect(seen).toEqual(["req-A", "req-B", "none"]);
  });
});
