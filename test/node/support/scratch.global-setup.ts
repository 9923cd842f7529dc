/**
 * Node global setup: one scratch directory for the whole run, removed when the run ends.
 *
 * The node project's files share their worker processes (`isolate: false` in vitest.config.ts), so
 * what a helper module makes once, such as the deploy tests' checked bundle and their HOME
 * (deploy-support/in-process.ts), serves every later file of that process. A file's own afterAll
 * must not remove it; the run's teardown removes everything at once.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    /** A directory that lasts the whole run: helpers' temporary directories go in it. */
    nodeScratch: string;
  }
}

export default function setup(project: TestProject) {
  const dir = mkdtempSync(path.join(tmpdir(), "catalog-node-tests-"));
  project.provide("nodeScratch", dir);
  return () => rmSync(dir, { recursive: true, force: true });
}
