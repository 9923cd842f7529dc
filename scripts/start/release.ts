/**
 * Which release `npm start` serves on a deployment. A restart must not roll back a release the
 * developer published (catalog:publish, catalog:rollback): the sample catalog (data/profiles) is
 * published only where no release is current yet, or when asked (--publish-sample). Otherwise the
 * current release stays, and the start screen says which it is.
 */
import { hexOf, type Manifest } from "../../src/common/catalog/manifest";
import { publishRelease, readCurrent, type ReleaseStorage } from "../../src/node/catalog/publish";
import { readManifest } from "../../src/common/catalog/store";
import { openReleaseDir } from "../release-dir";

export interface ServedRelease {
  release_id: string;
  profile_count: number;
  published_at: string;
  /** The sample catalog, as built from data/profiles by this start. */
  sample: boolean;
  /** This start made it current (nothing was current, or --publish-sample). */
  publishedNow: boolean;
}

export interface SampleBuild {
  releaseDir: string;
  manifest: Manifest;
}

export async function releaseToServe(
  storage: ReleaseStorage,
  sample: SampleBuild,
  options: { publishSample: boolean },
): Promise<ServedRelease> {
  const current = await readCurrent(storage.kv);
  // Publishing the current sample again changes nothing but what it lacks (e.g. its D1 query rows).
  if (!current || options.publishSample || current.release_id === sample.manifest.release_id) {
    const published = await publishRelease(storage, openReleaseDir(sample.releaseDir));
    return {
      release_id: published.release_id,
      profile_count: sample.manifest.profile_count,
      published_at: published.published_at,
      sample: true,
      publishedNow: published.pointer_flipped,
    };
  }
  const manifest = await readManifest(storage.kv, hexOf(current.release_id));
  if (!manifest?.published_at) {
    throw new Error(
      `the current release ${current.release_id} has no published manifest in KV: publish a build again (npm run catalog:publish, or npm start -- --publish-sample)`,
    );
  }
  return {
    release_id: manifest.release_id,
    profile_count: manifest.profile_count,
    published_at: manifest.published_at,
    sample: manifest.release_id === sample.manifest.release_id,
    publishedNow: false,
  };
}
