/**
 * A throwaway deployment state for an e2e file: the sample catalog built by the real build and
 * published with the real publish CLI into a temp --persist-to directory. The sample release is
 * published once per run (samples-state.global-setup.ts) and each file starts from a copy of that
 * state, as a publish of the same build would leave it: one publish, not one per file.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { buildCatalog, type BuildResult } from "../../../src/node/catalog/build/build";
import { REPO_ROOT } from "./wrangler-dev";
import { inject } from "vitest";
import { runScript } from "./scripts";
import { catalogPublish } from "../../../src/node/catalog/publish-command";
import { type CliRun, runInProcess } from "../../node/cli-in-process";

export interface CatalogState {
  dir: string;
  persistTo: string;
  build(input: string, partBytes?: number): Promise<BuildResult & { document: Buffer }>;
  publish(releaseDir: string, extraArgs?: string[]): ReturnType<typeof runScript>;
  /** The same publish by the command in this process (its `run`, what the door runs): a Node, tsx and wrangler start fewer. */
  publishInProcess(releaseDir: string): Promise<CliRun>;
  /** Builds the sample profiles and publishes them (exit 0 required): the release most files serve. */
  publishSamples(): Promise<BuildResult & { document: Buffer }>;
  /** The same, into an empty state, by the publish CLI itself (the run's one published sample state). */
  publishSamplesFresh(): Promise<BuildResult & { document: Buffer }>;
  remove(): void;
}

/** The run's published sample state (samples-state.global-setup.ts), and the release it serves. */
export interface SamplesState {
  persistTo: string;
  releaseId: string;
}

export const SAMPLE_PROFILES = path.join(REPO_ROOT, "data/profiles");

export function catalogState(): CatalogState {
  const dir = mkdtempSync(path.join(tmpdir(), "catalog-e2e-"));
  const persistTo = path.join(dir, "state");
  const state: CatalogState = {
    dir,
    persistTo,
    async build(input, partBytes = 7919) {
      const result = await buildCatalog({ input, outDir: path.join(dir, "dist"), partBytes });
      const document = Buffer.concat(
        result.manifest.parts.map((part) => readFileSync(path.join(result.releaseDir, "parts", String(part.index)))),
      );
      return { ...result, document };
    },
    // The publish applies the D1 schema to a fresh state itself (src/node/local/deployment-storage.ts).
    async publish(releaseDir, extraArgs = []) {
      return runScript("catalog-publish.ts", ["--release", releaseDir, "--persist-to", persistTo, ...extraArgs]);
    },
    publishInProcess: (releaseDir) =>
      runInProcess(catalogPublish.run, ["--release", releaseDir, "--persist-to", persistTo]),
    async publishSamples() {
      const origin = inject("samplesState");
      if (origin === undefined) return state.publishSamplesFresh();
      const answer = await fetch(origin);
      if (!answer.ok) throw new Error(await answer.text());
      const published = (await answer.json()) as SamplesState;
      const built = await state.build(SAMPLE_PROFILES);
      if (built.manifest.release_id !== published.releaseId)
        throw new Error(`the sample build ${built.manifest.release_id} is not the published ${published.releaseId}`);
      cpSync(published.persistTo, persistTo, { recursive: true });
      return built;
    },
    async publishSamplesFresh() {
      const built = await state.build(SAMPLE_PROFILES);
      const published = await state.publish(built.releaseDir);
      if (published.code !== 0) throw new Error(`catalog:publish exited ${published.code}:\n${published.stderr}`);
      return built;
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
  return state;
}
