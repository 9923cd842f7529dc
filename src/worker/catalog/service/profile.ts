/**
 * One profile of a release, by scope (product and funnel keys) or by id, through the release
 * index: located (where its bytes are, their SHA-256) or read (the profile itself).
 */
import { asDigest } from "../../../common/catalog/digest";
import type { Manifest } from "../../../common/catalog/manifest";
import { type IndexedProfile, scopeKey } from "../../../common/catalog/profile-index";
import type { Profile } from "../../../common/catalog/schema";
import { IndexReader } from "../index-reader";
import { profileScopePath } from "../profile-representation";
import { profileBytes } from "../query-bytes";
import { catalogMiss, type ProfileRef } from "./errors";

export type { ProfileRef } from "./errors";
/** A profile's pinned path by id, `/v1/releases/{release_id}/profiles/{id}`. */
export { profileIdPath } from "../profile-representation";

type ReadsEnv = { RELEASES: R2Bucket };

export interface FoundProfile {
  profile: Profile;
  /** The profile's bytes as the document holds them, as text (the `sha256` is of these). */
  text: string;
  /** `sha256:<hex>` of the profile's bytes. */
  sha256: string;
  /** The profile's pinned path, `/v1/releases/{release_id}/profiles/{product}/{funnel}`. */
  path: string;
}

/** Where the profile's bytes are in the release's document, or the profile_not_found miss. */
export async function locateProfile(env: ReadsEnv, manifest: Manifest, ref: ProfileRef): Promise<IndexedProfile> {
  const [name, key] = "id" in ref ? (["id", ref.id] as const) : (["scope", scopeKey(ref.product, ref.funnel)] as const);
  const located = await IndexReader.of(env.RELEASES, manifest, name).find(key);
  if (!located) throw catalogMiss({ kind: "profile_not_found", releaseId: manifest.release_id, ref });
  return located;
}

/** The profile itself, exactly as its bytes in the document say. */
export async function readProfile(env: ReadsEnv, manifest: Manifest, ref: ProfileRef): Promise<FoundProfile> {
  const located = await locateProfile(env, manifest, ref);
  const [bytes] = await profileBytes(env.RELEASES, manifest, [located]);
  const text = new TextDecoder().decode(bytes);
  const profile = JSON.parse(text) as Profile;
  return { profile, text, sha256: asDigest(located.sha256), path: pinnedPathOf(manifest, profile) };
}

/** A profile's pinned path in `manifest`'s release. */
export const pinnedPathOf = (manifest: Manifest, profile: Profile) =>
  profileScopePath(manifest.release_id, profile.scope.product.key, profile.scope.funnel.key);
