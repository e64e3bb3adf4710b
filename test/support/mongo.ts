import { inject } from "vitest";
import { randomBytes } from "node:crypto";

/** A MongoDB URL naming a fresh database, so suites never see each other's data. */
export function freshMongoUrl(prefix: string): string {
  const base = new URL(inject("mongoUrl"));
  base.pathname = `/${prefix}_${randomBytes(4).toString("hex")}`;
  return base.toString();
}

/** FerretDB does not make concurrent updates of one document atomic (DECISIONS 6). */
export function mongoIsReal(): boolean {
  return inject("mongoIsReal");
}
