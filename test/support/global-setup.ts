import type { TestProject } from "vitest/node";
import { startFerretDb, type RunningMongo } from "./ferretdb.js";

declare module "vitest" {
  export interface ProvidedContext {
    mongoUrl: string;
    mongoIsReal: boolean;
  }
}

let mongo: RunningMongo | undefined;

/**
 * Integration suites talk to MongoDB: MONGODB_URL when set (a real MongoDB), else a FerretDB
 * started here for this run.
 */
export async function setup(project: TestProject): Promise<void> {
  const external = process.env.MONGODB_URL;
  if (external) {
    project.provide("mongoUrl", external);
    project.provide("mongoIsReal", true);
    return;
  }
  mongo = await startFerretDb();
  project.provide("mongoUrl", mongo.url);
  project.provide("mongoIsReal", false);
}

export async function teardown(): Promise<void> {
  await mongo?.stop();
}
