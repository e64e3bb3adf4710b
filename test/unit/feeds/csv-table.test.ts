import { describe, expect, it } from "vitest";
import { parseCsvTable, parseTime } from "../../../src/feeds/replay/csv-table.js";

const spec = { timeColumn: "timestamp", valueColumns: ["close", "volume"] } as const;

describe("parseCsvTable", () => {
  it("reads the named columns into typed arrays, ignoring others and a trailing newline", () => {
    const t = parseCsvTable(
      "x.csv",
      "timestamp,open,close,volume\n2024-01-01T00:00:00Z,1,2,3\n2024-01-01T01:00:00Z,4,5,6\n",
      spec,
    );
    expect(Array.from(t.time)).toEqual([Date.UTC(2024, 0, 1, 0), Date.UTC(2024, 0, 1, 1)]);
    expect(Array.from(t.columns.close ?? [])).toEqual([2, 5]);
    expect(Array.from(t.columns.volume ?? [])).toEqual([3, 6]);
  });

  it("rejects a header without the needed columns", () => {
    expect(() => parseCsvTable("x.csv", "timestamp,close\n", spec)).toThrow(/header must contain/);
  });

  it("rejects a non-numeric cell, naming file and line", () => {
    expect(() =>
      parseCsvTable("x.csv", "timestamp,close,volume\n2024-01-01T00:00:00Z,abc,1\n", spec),
    ).toThrow("x.csv line 2: close is not a finite number");
  });

  it("rejects times out of order or duplicated (binary search depends on it)", () => {
    const text = "timestamp,close,volume\n2024-01-01T01:00:00Z,1,1\n2024-01-01T01:00:00Z,1,1\n";
    expect(() => parseCsvTable("x.csv", text, spec)).toThrow(/line 3/);
  });

  it("parses both time formats as UTC", () => {
    expect(parseTime("2024-02-29", "date")).toBe(Date.UTC(2024, 1, 29));
    expect(parseTime("2024-02-29T13:00:00Z", "timestamp")).toBe(Date.UTC(2024, 1, 29, 13));
    expect(parseTime("2024-02-29 13:00", "timestamp")).toBeNaN();
  });
});
