/**
 * E2E global setup (runs in Node): publishes the sample catalog once, with the real build and
 * publish CLI, into a state that each file's `publishSamples()` copies (catalog-state.ts). Every
 * e2e file that needs a published catalog starts from this state; publishing it in each (a CLI
 * process that opens the local bindings) cost more than a third of their setup.
 */
import type { TestProject } from "vitest/node";
import { catalogState } from "./catalog-state";

declare module "vitest" {
  export interface ProvidedContext {
    /** The published sample state, and the release it serves. */
    samplesState: { persistTo: string; releaseId: string };
  }
}

export default async function setup(project: TestProject) {
  const state = catalogState();
  try {
    const built = await state.publishSamplesFresh();
    project.provide("samplesState", { persistTo: state.persistTo, releaseId: built.manifest.release_id });
  } catch (error) {
    state.remove();
    throw error;
  }
  return () => state.remove();
}
