import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = resolve(import.meta.dirname, "..", "..", "..");
const SRC = join(ROOT, "src");

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith(".ts") ? [join(dir, e.name)] : [],
  );
}

/** Every module a file imports (static, dynamic and type-only), as written. */
function specifiers(file: string): string[] {
  const text = readFileSync(file, "utf8");
  return [...text.matchAll(/(?:\bfrom\s+|\bimport\s*\(\s*|^\s*import\s+)["']([^"']+)["']/gm)].map((m) => m[1] as string);
}

/** Source text without comments (a comment may name what the code must not do). */
function withoutComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:])\/\/.*$/gm, "$1");
}

/** "src/…" path of a relative import, or the package name of a bare one. */
function target(file: string, spec: string): string {
  if (!spec.startsWith(".")) return spec;
  return relative(ROOT, resolve(dirname(file), spec));
}

/**
 * The packages the domain may use: pure computation, no I/O, no framework. A new one is a
 * decision (say why in docs/decisions.md), not an accident.
 */
const DOMAIN_PACKAGES = new Set(["node:crypto", "zod", "trading-signals", "wabt", "simple-statistics"]);

/**
 * Folders below the HTTP facade and the actors: application services (key checks, limiters,
 * newsletter, the engines' inputs), the engine backtest, the store and its sealing decorators. They return typed results
 * that the HTTP layer words and actors call them, never the other way round.
 */
const BELOW_HTTP_AND_ACTORS = ["application", "backtest", "store", "sealing"];

describe("layers (README's architecture)", () => {
  it("src/domain imports only itself and a few pure packages", () => {
    const outside = sourceFiles(join(SRC, "domain")).flatMap((file) =>
      specifiers(file)
        .map((spec) => target(file, spec))
        .filter((t) => !t.startsWith("src/domain/") && !DOMAIN_PACKAGES.has(t))
        .map((t) => `${relative(ROOT, file)} → ${t}`),
    );
    expect(outside).toEqual([]);
  });

  it("src/domain reads no clock and draws no randomness (time and random sources come in as arguments)", () => {
    const forbidden = [/\bDate\.now\s*\(/, /\bnew\s+Date\s*\(\s*\)/, /\bMath\.random\s*\(/, /\bperformance\s*\./, /\bimport\s*\{[^}]*\brandom\w*[^}]*\}\s*from\s*["']node:crypto["']/];
    const found = sourceFiles(join(SRC, "domain")).flatMap((file) => {
      const code = withoutComments(readFileSync(file, "utf8"));
      return forbidden.filter((re) => re.test(code)).map((re) => `${relative(ROOT, file)}: ${re.source}`);
    });
    expect(found).toEqual([]);
    // The scan sees what it looks for.
    const sample = 'import { randomInt } from "node:crypto";\nDate.now();\nnew Date();\nMath.random();\nperformance.now();';
    expect(forbidden.map((re) => re.test(withoutComments(sample)))).toEqual(forbidden.map(() => true));
    expect(forbidden.some((re) => re.test(withoutComments("// Date.now() in a comment\n/* new Date() */ const t = new Date(0);")))).toBe(false);
  });

  it.each(BELOW_HTTP_AND_ACTORS)("src/%s imports neither src/http nor src/actors", (folder) => {
    const files = sourceFiles(join(SRC, folder));
    expect(files.length).toBeGreaterThan(0);
    const crossing = files.flatMap((file) =>
      specifiers(file)
        .map((spec) => target(file, spec))
        .filter((t) => t.startsWith("src/http/") || t.startsWith("src/actors/"))
        .map((t) => `${relative(ROOT, file)} → ${t}`),
    );
    expect(crossing).toEqual([]);
  });

  it("sees the imports it checks (a parser that finds nothing would pass anything)", () => {
    const file = join(SRC, "http", "app.ts");
    expect(specifiers(file).map((s) => target(file, s))).toContain("express");
    const domainFile = join(SRC, "domain", "regime", "fit-hmm.ts");
    expect(specifiers(domainFile).map((s) => target(domainFile, s))).toContain("src/domain/regime/baum-welch.js");
  });
});
