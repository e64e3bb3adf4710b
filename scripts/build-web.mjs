// Builds the dashboard and the docs page (web/) into dist/web: bundles with esbuild, copies the
// HTML and CSS, and writes .gz/.br siblings so the server can send them pre-compressed.
// Run by `npm start` (prestart) and by the browser tests; output is never committed.
import { build } from "esbuild";
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");

/**
 * Writes through a temporary file and a rename, so a concurrent build (two test workers) or a
 * running server never sees a half-written asset; both builds write identical bytes.
 */
function writeAtomic(path, bytes) {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  writeFileSync(tmp, bytes);
  renameSync(tmp, path);
}

function writeAsset(path, bytes) {
  writeAtomic(path, bytes);
  writeAtomic(`${path}.gz`, gzipSync(bytes, { level: 9 }));
  writeAtomic(`${path}.br`, brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
}

/** Builds into `outDir` (default dist/web) and returns each file's raw and gzip size. */
export async function buildWeb(outDir = join(root, "dist", "web")) {
  const result = await build({
    entryPoints: { app: join(root, "web/src/main.ts"), docs: join(root, "web/src/docs/main.ts") },
    bundle: true,
    format: "esm",
    target: "es2022",
    minify: true,
    write: false,
    outdir: join(outDir, "assets"),
    legalComments: "eof",
    logLevel: "warning",
  });
  const files = result.outputFiles.map((f) => ({ path: f.path, bytes: f.contents }));
  files.push({ path: join(outDir, "assets", "styles.css"), bytes: readFileSync(join(root, "web/styles.css")) });
  for (const page of ["index.html", "docs.html"]) files.push({ path: join(outDir, page), bytes: readFileSync(join(root, "web", page)) });
  const sizes = [];
  for (const f of files) {
    writeAsset(f.path, f.bytes);
    sizes.push({ file: relative(outDir, f.path), bytes: f.bytes.length, gzip: gzipSync(f.bytes, { level: 9 }).length });
  }
  return sizes;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const sizes = await buildWeb();
  for (const s of sizes) console.log(`web: ${s.file} ${(s.bytes / 1024).toFixed(1)} KiB (${(s.gzip / 1024).toFixed(1)} KiB gzip)`);
}
