/**
 * Worker-project global setup (runs in Node): builds the test releases from data/profiles with the
 * real catalog build and provides them to the workerd tests.
 */
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { buildCatalog } from "../../../scripts/catalog/build";
import { INDEX_NAMES, type IndexName } from "../../../src/catalog/profile-index";
import { RELAID_PART_BYTES, TEST_INDEX_PAGE_BYTES, TEST_PART_BYTES, type ProvidedRelease, type TestReleaseName } from "./provided-releases";

const PROFILES = path.resolve(import.meta.dirname, "../../../data/profiles");

export default async function setup(project: TestProject) {
  const work = mkdtempSync(path.join(tmpdir(), "catalog-test-releases-"));
  try {
    const files = readdirSync(PROFILES).filter((name) => name.endsWith(".json")).sort();
    const subset = (name: string, keep: number) => {
      const dir = path.join(work, name);
      for (const file of files.slice(0, keep)) cpSync(path.join(PROFILES, file), path.join(dir, file));
      return dir;
    };
    const build = async (input: string, partBytes: number): Promise<ProvidedRelease> => {
      const { manifest, releaseDir } = await buildCatalog({ input, outDir: path.join(work, "out"), partBytes, indexPageBytes: TEST_INDEX_PAGE_BYTES });
      const read = (...file: string[]) => readFileSync(path.join(releaseDir, ...file)).toString("base64");
      const parts = manifest.parts.map((part) => read("parts", String(part.index)));
      const index = Object.fromEntries(
        INDEX_NAMES.map((name) => [name, manifest.index!.find((i) => i.name === name)!.segments.map((segment) => read("index", name, String(segment.index)))]),
      ) as Record<IndexName, string[]>;
      return { manifest, parts, index };
    };
    const releases: Record<TestReleaseName, ProvidedRelease> = {
      base: await build(PROFILES, TEST_PART_BYTES),
      smaller: await build(subset("smaller", files.length - 1), TEST_PART_BYTES),
      smallest: await build(subset("smallest", files.length - 2), TEST_PART_BYTES),
      relaid: await build(PROFILES, RELAID_PART_BYTES),
    };
    project.provide("catalogReleases", releases);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
