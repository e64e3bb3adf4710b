import { describe, expect, it } from "vitest";
import { ActivationTable } from "../../../src/runtime/activation-table.js";

describe("the activation table's view of running turns (readiness)", () => {
  it("reports how long the oldest running job has run, and nothing once it finished", async () => {
    const table = new ActivationTable();
    let open: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (open = resolve));
    expect(table.oldestRunningMs()).toBe(0);
    const job = table.enqueue(table.entry("T", "a"), () => gate);
    // A job queued behind it is not running yet and adds nothing.
    const queued = table.enqueue(table.entry("T", "a"), () => Promise.resolve());
    await Promise.resolve();
    const later = Date.now() + 300_000;
    expect(table.oldestRunningMs(later)).toBeGreaterThanOrEqual(300_000);
    open();
    await job;
    await queued;
    expect(table.oldestRunningMs(later)).toBe(0);
  });
});
