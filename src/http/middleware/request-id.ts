import { randomUUID } from "node:crypto";
import type { NextFunction, Request, Response } from "express";

const SAFE_ID = /^[A-Za-z0-9._-]{8,64}$/;

/** Every response carries X-Request-Id; a caller's own well-formed id is kept for tracing. */
export function requestId(req: Request, res: Response, next: NextFunction): void {
  const incoming = req.get("x-request-id");
  const id = incoming && SAFE_ID.test(incoming) ? incoming : randomUUID();
  res.setHeader("X-Request-Id", id);
  (req as Request & { id: string }).id = id;
  next();
}
