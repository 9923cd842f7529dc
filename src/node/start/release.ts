/**
 * Which release `npm start` serves on a deployment. A restart must not roll back a release the
 * developer published (catalog:publish, catalog:rollback): the sample catalog (data/profiles) is
 * published only where no release is current yet, or when asked (--publish-sample). Otherwise the
 * current release stays, and the start screen says which it is.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { hexOf, type Manifest } from "../../common/catalog/manifest";
import { publishRelease, readCurrent, type ReleaseStorage } from "../catalog/publish";
import { readManifest } from "../../common/catalog/store";
import { openReleaseDir } from "../catalog/release-dir";

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

/** `product_key/funnel_key` of the first profile (by file name) of the sample catalog, for the start screen's first curl. */
export function sampleProfileKey(profilesDir: string): string | undefined {
  const first = readdirSync(profilesDir)
    .filter((name) => name.endsWith(".json"))
    .sort()[0];
  if (!first) return undefined;
  const profile = JSON.parse(readFileSync(path.join(profilesDir, first), "utf8")) as {
    scope?: { product?: { key?: string }; funnel?: { key?: string } };
  };
  const product = profile.scope?.product?.key;
  const funnel = profile.scope?.funnel?.key;
  return product && funnel ? `${product}/${funnel}` : undefined;
}
