import { execFile } from "node:child_process";
import { createRequire } from "node:module";
import { promisify } from "node:util";

/** Where `compileTargets` writes bench/http/target.ts, compiled (gitignored). */
export const COMPILED_TARGET = ".bench-build/bench/http/target.js";

/**
 * Compiles the HTTP bench's targets with tsc, as `npm run build` compiles the service, so the
 * bench measures what `npm start` runs (`node dist/src/main.js`), not the same code transformed
 * on the fly by tsx: esbuild's transform wraps every function made per request with a naming
 * helper, which the compiled service never runs (bench/README.md).
 */
export async function compileTargets(): Promise<string> {
  const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
  await promisify(execFile)(process.execPath, [tsc, "-p", "bench/http/tsconfig.targets.json"]);
  return COMPILED_TARGET;
}
