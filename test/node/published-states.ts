/**
 * Local deployment states (a temp --persist-to, read through wrangler's platform proxy: the state
 * `wrangler dev` would serve) with releases already published, for the tests of catalog:publish
 * and catalog:rollback: `a` is the sample catalog, `b` the sample without its first profile, both
 * cut into 7919-byte parts. Published once, in process (setup, not the subject); a test that starts
 * from one works on a copy of its own.
 */
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { buildCatalog, type BuildResult } from "../../src/node/catalog/build/build";
import { publishRelease, readCurrent } from "../../src/node/catalog/publish";
import { openReleaseDir } from "../../src/node/catalog/release-dir";
import { openDeploymentStorage } from "../../src/node/local/deployment-storage";
import { PROFILES_DIR } from "./profile-fixtures";

export interface PublishedStates {
  dir: string;
  a: BuildResult;
  b: BuildResult;
  /** The sample profiles without the first: the input of `b`. */
  subset: string;
  /** A state where `a` is current. */
  publishedA: string;
  /** A state where `b` is current, `a` kept before it (only when asked for). */
  publishedAB?: string;
  /** `<dir>/<name>`: a state of its own, empty until a command writes it. */
  stateDir(name: string): string;
  /** A state of its own for a test, copied from `template`. */
  copyOf(template: string, name: string): string;
  remove(): void;
}

export async function publishedStates(prefix: string, options: { withAB: boolean }): Promise<PublishedStates> {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  const stateDir = (name: string) => path.join(dir, name);
  const subset = stateDir("subset");
  mkdirSync(subset);
  for (const file of readdirSync(PROFILES_DIR).slice(1)) cpSync(path.join(PROFILES_DIR, file), path.join(subset, file));
  const a = await buildCatalog({ input: PROFILES_DIR, outDir: stateDir("dist"), partBytes: 7919 });
  const b = await buildCatalog({ input: subset, outDir: stateDir("dist"), partBytes: 7919 });
  const publishedA = await publishInto(stateDir("published-a"), [a]);
  let publishedAB: string | undefined;
  if (options.withAB) {
    publishedAB = stateDir("published-ab");
    cpSync(publishedA, publishedAB, { recursive: true });
    await publishInto(publishedAB, [b]);
  }
  return {
    dir,
    a,
    b,
    subset,
    publishedA,
    publishedAB,
    stateDir,
    copyOf: (template, name) => {
      cpSync(template, stateDir(name), { recursive: true });
      return stateDir(name);
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** Publishes `releases` in turn into the state `persistTo` with the engine, in process. */
async function publishInto(persistTo: string, releases: BuildResult[]): Promise<string> {
  const opened = await openDeploymentStorage({ persistTo });
  try {
    for (const release of releases) await publishRelease(opened.storage, openReleaseDir(release.releaseDir));
  } finally {
    await opened.dispose();
  }
  return persistTo;
}

/** The `current` pointer of a state, read back as `wrangler dev` would. */
export async function currentOf(persistTo: string, environment?: string) {
  const opened = await openDeploymentStorage({ persistTo, environment });
  try {
    return await readCurrent(opened.storage.kv);
  } finally {
    await opened.dispose();
  }
}
