import type { SqliteMigration } from "./migrate.js";
import { accessMigrations } from "./access.js";

/** Every component's migrations; applyMigrations orders and records them. */
export const sqliteMigrations: readonly SqliteMigration[] = [...accessMigrations];
