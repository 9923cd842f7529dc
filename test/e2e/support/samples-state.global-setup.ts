/**
 * E2E global setup (runs in Node): publishes the sample catalog once, with the real build and
 * publish CLI, into a state that each file's `publishSamples()` copies (catalog-state.ts). Every
 * e2e file that needs a published catalog starts from this state; publishing it in each (a CLI
 * process that opens the local bindings) cost more than a third of their setup.
 *
 * The publish (~8 s) runs in the background: vitest runs the projects' global setups one after the
 * other before any file starts, and the files that start first do not need it at once. A server on
 * 127.0.0.1 answers `GET /` with the published state (`{persistTo, releaseId}`) once it is there.
 */
import type { TestProject } from "vitest/node";
import { serveWhenReady } from "../../worker/support/loopback-server";
import { catalogState, type SamplesState } from "./catalog-state";

declare module "vitest" {
  export interface ProvidedContext {
    /** The origin that serves the SamplesState, JSON, once the samples are published. */
    samplesState: string;
  }
}

export default async function setup(project: TestProject) {
  const state = catalogState();
  const published = state
    .publishSamplesFresh()
    .then((built): SamplesState => ({ persistTo: state.persistTo, releaseId: built.manifest.release_id }));
  const { origin, close } = await serveWhenReady(published, "the publish of the sample catalog");
  project.provide("samplesState", origin);
  return async () => {
    await close();
    await published.catch(() => {});
    state.remove();
  };
}
