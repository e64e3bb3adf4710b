import { existsSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import type { Express, Request, Response, NextFunction } from "express";

const CONTENT_TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
};

/** The package root: the nearest ancestor with package.json, the same from src/ (tsx) and dist/src/ (node). */
function packageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, "package.json"))) {
    const parent = dirname(dir);
    if (parent === dir) return process.cwd();
    dir = parent;
  }
  return dir;
}

/** The built dashboard (scripts/build-web.mjs), or an explicit directory for tests. */
export function defaultWebDir(): string {
  return join(packageRoot(), "dist", "web");
}

/**
 * Sends a built file, pre-compressed when the client accepts it: the server has no compression
 * middleware, and brotli-11 at build time beats anything affordable per request.
 */
function sendBuilt(webDir: string, relPath: string, req: Request, res: Response, next: NextFunction): void {
  const file = resolve(webDir, relPath);
  // Path traversal guard: only files inside the build directory are ever sent.
  if (!file.startsWith(resolve(webDir) + sep) || !existsSync(file)) {
    next();
    return;
  }
  const ext = file.slice(file.lastIndexOf("."));
  const type = CONTENT_TYPES[ext];
  if (!type) {
    next();
    return;
  }
  const accepts = String(req.headers["accept-encoding"] ?? "");
  const encoding = /\bbr\b/.test(accepts) && existsSync(`${file}.br`) ? "br" : /\bgzip\b/.test(accepts) && existsSync(`${file}.gz`) ? "gzip" : null;
  res.setHeader("Content-Type", type);
  res.setHeader("Vary", "Accept-Encoding");
  // Asset names carry no content hash, so browsers revalidate (cheap: ETag / 304) on every load.
  res.setHeader("Cache-Control", "no-cache");
  if (encoding) res.setHeader("Content-Encoding", encoding);
  const sent = encoding === "br" ? `${file}.br` : encoding === "gzip" ? `${file}.gz` : file;
  // Relative to `root`: `dotfiles` then judges only the path inside the build directory. With an
  // absolute path it judged the whole path, so an install under any dot-folder (~/.local/…)
  // answered every page 403.
  res.sendFile(relative(webDir, sent), { root: webDir, acceptRanges: false, dotfiles: "deny" }, (err) => {
    if (err === undefined || res.headersSent) return;
    // The file went away between the check and the send: as if it had never been there (404).
    res.removeHeader("Content-Type");
    res.removeHeader("Content-Encoding");
    next();
  });
}

function notBuilt(res: Response): void {
  res
    .status(503)
    .type("text/plain")
    .send("The dashboard has not been built on this server. Run `npm run build:web` (npm start does it for you). The API under /v1 works regardless.");
}

/** Mounts the dashboard at `/`, the API docs at `/docs` and their assets at `/assets/*`. */
export function mountPages(app: Express, webDir: string = defaultWebDir()): void {
  const page = (name: string) => (req: Request, res: Response, next: NextFunction) => {
    if (!existsSync(join(webDir, name))) return notBuilt(res);
    sendBuilt(webDir, name, req, res, next);
  };
  app.get("/", page("index.html"));
  app.get("/docs", page("docs.html"));
  app.get("/assets/:file", (req, res, next) => sendBuilt(webDir, join("assets", String(req.params.file)), req, res, next));
}
