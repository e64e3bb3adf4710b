import { describe, expect, it } from "vitest";
import { parseObservationsCsv } from "../../../src/cli/observations-csv.js";

describe("obs.csv of the regime CLI", () => {
  it("reads the header's feature names and one row per line, row-major", () => {
    const { features, obs } = parseObservationsCsv("ret,vol\r\n0.5,-1e-3\n2, 3.25\n\n");
    expect(features).toEqual(["ret", "vol"]);
    expect(obs.t).toBe(2);
    expect(obs.d).toBe(2);
    expect(Array.from(obs.data)).toEqual([0.5, -0.001, 2, 3.25]);
  });

  it("names the line and column of a cell that is empty, not a number or not finite", () => {
    expect(() => parseObservationsCsv("a,b\n1,\n")).toThrow('obs.csv line 2, column b: "" is not a finite number');
    expect(() => parseObservationsCsv("a,b\n1,2\nx,2\n")).toThrow('obs.csv line 3, column a: "x" is not a finite number');
    expect(() => parseObservationsCsv("a\nInfinity\n")).toThrow('obs.csv line 2, column a: "Infinity" is not a finite number');
  });

  it("refuses rows of the wrong width, a missing header and a header without rows", () => {
    expect(() => parseObservationsCsv("a,b\n1,2,3\n")).toThrow("obs.csv line 2: 3 cells, the header names 2");
    expect(() => parseObservationsCsv("")).toThrow("obs.csv: empty file, expected a header line");
    expect(() => parseObservationsCsv("a,b\n")).toThrow("obs.csv: no observations after the header");
  });
});
