import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { CATALOGUE_IN_ORDER } from "../../../src/domain/signals/catalogue.js";
import { SIGNAL_KEYS } from "../../../src/domain/signals/signal-keys.js";

/** The catalogue table of docs/signals.md, one row per signal: cells with `\|` unescaped. */
function docRows(): string[][] {
  const text = readFileSync(new URL("../../../docs/signals.md", import.meta.url), "utf8");
  return text
    .split("\n")
    .filter((line) => line.startsWith("| `"))
    .map((line) =>
      line
        .slice(1, -1)
        .split(/(?<!\\)\|/)
        .map((c) => c.trim().replace(/\\\|/g, "|")),
    );
}

const duration = (ms: number | undefined) => (ms === undefined ? "—" : ms % 86_400_000 === 0 ? `${ms / 86_400_000} d` : `${ms / 3_600_000} h`);

describe("docs/signals.md catalogue table", () => {
  it("lists exactly the 27 signal keys, in catalogue order", () => {
    const keys = docRows().map((r) => r[0]?.replace(/`/g, ""));
    expect(keys).toHaveLength(27);
    expect(keys).toEqual(CATALOGUE_IN_ORDER.map((d) => d.key));
    expect(new Set(keys)).toEqual(new Set(SIGNAL_KEYS));
  });

  it("agrees with the catalogue on name, category, unit, sources, refresh and formula", () => {
    const rows = new Map(docRows().map((r) => [r[0]?.replace(/`/g, ""), r]));
    for (const d of CATALOGUE_IN_ORDER) {
      const [, name, category, unit, live, replay, refresh, formula] = rows.get(d.key) ?? [];
      expect({ name, category, unit, refresh, formula }, d.key).toEqual({
        name: d.displayName,
        category: d.category,
        unit: d.unit,
        refresh: `${duration(d.sources.live?.refreshMs)} / ${duration(d.sources.replay?.refreshMs)}`,
        formula: d.formula,
      });
      // A DEAD mode says so; a real source names its series.
      expect(live, d.key).toBe(d.sources.live ? `${d.sources.live.provider}: ${d.sources.live.detail}` : "none (DEAD)");
      expect(replay, d.key).toBe(d.sources.replay ? `${d.sources.replay.provider.replace(/^replay:/, "")}: ${d.sources.replay.detail}` : "none (DEAD)");
    }
  });
});
