/**
 * Worker-project global setup (runs in Node): builds the test releases from data/profiles with the
 * real catalog build and serves them to the workerd tests from 127.0.0.1 (releases.ts reads them
 * once per runner). Not through provide(): vitest sends the provided context with the run request
 * of every test file, and these 9.6 MB, serialized in Node and parsed in workerd for each file, cost
 * ~0.8 s a file (a third of the worker project's time).
 */
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { serveWhenReady } from "./loopback-server";
import { buildCatalog } from "../../../src/node/catalog/build/build";
import { generateProfiles } from "../../../src/node/catalog/build/generator";
import { expectDefined } from "../../../src/common/expect";
import { INDEX_NAMES, type IndexName } from "../../../src/common/catalog/profile-index";
import {
  GENERATED_PROFILES,
  GENERATED_PART_BYTES,
  RELAID_PART_BYTES,
  TEST_INDEX_PAGE_BYTES,
  TEST_PART_BYTES,
  EDITED,
  REGRADED,
  WIDE_PRODUCT,
  type ProvidedRelease,
  type TestReleaseName,
} from "./provided-releases";

const PROFILES = path.resolve(import.meta.dirname, "../../../data/profiles");

export default async function setup(project: TestProject) {
  // Built in the background: the worker files run last, and vitest runs the projects' global setups
  // one after the other before any file starts. Both worker projects serve the one build.
  const state = globalThis as { catalogTestReleases?: ReturnType<typeof buildReleases> };
  state.catalogTestReleases ??= buildReleases();
  const { origin, close } = await serveWhenReady(state.catalogTestReleases, "the build of the test releases");
  project.provide("catalogReleases", origin);
  return close;
}

async function buildReleases(): Promise<Record<TestReleaseName, ProvidedRelease>> {
  const work = mkdtempSync(path.join(tmpdir(), "catalog-test-releases-"));
  try {
    const files = readdirSync(PROFILES)
      .filter((name) => name.endsWith(".json"))
      .sort();
    const subset = (name: string, keep: number) => {
      const dir = path.join(work, name);
      for (const file of files.slice(0, keep)) cpSync(path.join(PROFILES, file), path.join(dir, file));
      return dir;
    };
    /** The sample profiles and `funnels` more, all of one product (ndjson). */
    const wide = (name: string, funnels: number) => {
      const template = JSON.parse(
        readFileSync(path.join(PROFILES, expectDefined(files[0], "a sample profile")), "utf8"),
      ) as {
        agent_readiness_profile_id: string;
        scope: object;
      };
      const lines = files.map((file) => JSON.stringify(JSON.parse(readFileSync(path.join(PROFILES, file), "utf8"))));
      for (let i = 0; i < funnels; i++) {
        const funnel = { key: `funnel-${String(i).padStart(3, "0")}`, name: `Funnel ${i}` };
        lines.push(
          JSON.stringify({
            ...template,
            agent_readiness_profile_id: `arp_w${String(i).padStart(25, "0")}`,
            scope: { product: WIDE_PRODUCT, funnel },
          }),
        );
      }
      const file = path.join(work, `${name}.ndjson`);
      writeFileSync(file, `${lines.join("\n")}\n`);
      return file;
    };
    /** The samples with some profiles retested (a new last_tested_at), some removed and two added. */
    const edited = (name: string) => {
      const profiles = files.map(
        (file) => JSON.parse(readFileSync(path.join(PROFILES, file), "utf8")) as Record<string, unknown>,
      );
      const kept = profiles.filter((_, i) => !EDITED.removed.includes(i));
      for (const i of EDITED.retested)
        expectDefined(profiles[i], `sample profile ${i}`).last_tested_at = "2026-11-24T09:30:00.125Z";
      for (let i = 0; i < EDITED.added; i++) {
        kept.push({
          ...profiles[1],
          agent_readiness_profile_id: `arp_e${String(i).padStart(25, "0")}`,
          scope: { product: WIDE_PRODUCT, funnel: { key: `added-${i}`, name: `Added ${i}` } },
        });
      }
      const file = path.join(work, `${name}.ndjson`);
      writeFileSync(file, `${kept.map((profile) => JSON.stringify(profile)).join("\n")}\n`);
      return file;
    };
    /** The samples with REGRADED's profiles given another grade (A, or B for an A): grade transitions. */
    const regraded = (name: string) => {
      const profiles = files.map(
        (file) => JSON.parse(readFileSync(path.join(PROFILES, file), "utf8")) as Record<string, unknown>,
      );
      for (const i of REGRADED) {
        const profile = expectDefined(profiles[i], `sample profile ${i}`);
        profile.grade = profile.grade === "A" ? "B" : "A";
      }
      const file = path.join(work, `${name}.ndjson`);
      writeFileSync(file, `${profiles.map((profile) => JSON.stringify(profile)).join("\n")}\n`);
      return file;
    };
    /** `count` varied profiles from the generator (the queries' test catalog). */
    const generated = (name: string, count: number, seed: number) => {
      const file = path.join(work, `${name}.ndjson`);
      writeFileSync(file, Array.from(generateProfiles(count, seed), (p) => `${JSON.stringify(p)}\n`).join(""));
      return file;
    };
    const build = async (
      input: string,
      partBytes: number,
      indexPageBytes = TEST_INDEX_PAGE_BYTES,
    ): Promise<ProvidedRelease> => {
      const { manifest, releaseDir } = await buildCatalog({
        input,
        outDir: path.join(work, "out"),
        partBytes,
        indexPageBytes,
      });
      const read = (...file: string[]) => readFileSync(path.join(releaseDir, ...file)).toString("base64");
      const parts = manifest.parts.map((part) => read("parts", String(part.index)));
      const index = Object.fromEntries(
        INDEX_NAMES.map((name) => [
          name,
          expectDefined(
            manifest.index?.find((i) => i.name === name),
            `the ${name} index in the manifest`,
          ).segments.map((segment) => read("index", name, String(segment.index))),
        ]),
      ) as Record<IndexName, string[]>;
      return { manifest, parts, index };
    };
    const releases: Record<TestReleaseName, ProvidedRelease> = {
      base: await build(PROFILES, TEST_PART_BYTES),
      smaller: await build(subset("smaller", files.length - 1), TEST_PART_BYTES),
      smallest: await build(subset("smallest", files.length - 2), TEST_PART_BYTES),
      relaid: await build(PROFILES, RELAID_PART_BYTES),
      wide: await build(wide("wide", 250), TEST_PART_BYTES, 16 * 1024),
      wideSmallPages: await build(wide("wide-small-pages", 120), TEST_PART_BYTES),
      edited: await build(edited("edited"), TEST_PART_BYTES),
      regraded: await build(regraded("regraded"), TEST_PART_BYTES),
      generated: await build(generated("generated", GENERATED_PROFILES, 7), GENERATED_PART_BYTES, 16 * 1024),
      generatedNext: await build(
        generated("generated-next", GENERATED_PROFILES - 40, 8),
        GENERATED_PART_BYTES,
        16 * 1024,
      ),
    };
    return releases;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
