/**
 * Every profile of a test release, located in its document without the release index: the
 * document's `data` is RFC 8785 JSON, whose elements are exactly `JSON.stringify` of their parsed
 * values, one after another with a comma between.
 */
import { expectDefined } from "../../../src/common/expect";
import type { TestRelease } from "./releases";

export interface DocumentProfile {
  productKey: string;
  funnelKey: string;
  id: string;
  /** Where the profile's bytes are in the document. */
  offset: number;
  bytes: Uint8Array;
}

export function documentProfiles(release: TestRelease): DocumentProfile[] {
  const text = new TextDecoder().decode(release.document);
  const data = (
    JSON.parse(text) as {
      data: { agent_readiness_profile_id: string; scope: { product: { key: string }; funnel: { key: string } } }[];
    }
  ).data;
  let offset = new TextEncoder().encode(text.slice(0, text.indexOf('"data":[') + '"data":['.length)).length;
  return data.map((profile) => {
    const bytes = new TextEncoder().encode(JSON.stringify(profile));
    const located = {
      productKey: profile.scope.product.key,
      funnelKey: profile.scope.funnel.key,
      id: profile.agent_readiness_profile_id,
      offset,
      bytes,
    };
    offset += bytes.length + 1;
    return located;
  });
}

/** Profile `index` of the release's document (negative counts from the end); throws if there is none. */
export function documentProfile(release: TestRelease, index: number): DocumentProfile {
  return expectDefined(
    documentProfiles(release).at(index),
    `profile ${index} in the document of ${release.manifest.release_id}`,
  );
}
