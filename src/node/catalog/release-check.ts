/**
 * Checks that a built manifest describes a well-formed release before anything is uploaded:
 * the schema, the digests that tie it together, and a part layout that tiles the document.
 */
import { layoutProblems } from "../../../packages/client/src/protocol/layout.js";
import { releaseIdOf } from "../../common/catalog/digest";
import { Manifest } from "../../common/catalog/manifest";
import { INDEX_NAMES } from "../../common/catalog/profile-index";

/** Everything wrong with a manifest, as sentences; empty when it can be published. */
export async function releaseProblems(candidate: unknown): Promise<string[]> {
  const parsed = Manifest.safeParse(candidate);
  if (!parsed.success) {
    return parsed.error.issues.map((issue) => `manifest.${issue.path.join(".") || "(root)"}: ${issue.message}`);
  }
  const manifest = parsed.data;
  const problems = layoutProblems(manifest);
  // docs/contract.md: release_id = sha256 of JCS({"api_contract":A,"artifact_sha256":H}).
  const expectedId = await releaseIdOf(manifest.api_contract, manifest.artifact_sha256);
  if (manifest.release_id !== expectedId) {
    problems.push(
      `manifest.release_id: expected ${expectedId} (from api_contract and artifact_sha256), found ${manifest.release_id}`,
    );
  }
  return problems;
}

/**
 * The release index a publish requires (docs/contract.md "Release index"): both indexes, segments numbered
 * in order, sorted by their first key, each with its directory page inside it.
 */
export function indexProblems(manifest: Manifest): string[] {
  if (!manifest.index)
    return [
      "manifest.index: missing; this build predates profile lookups: build the release again with npm run catalog:build",
    ];
  const problems: string[] = [];
  const names = manifest.index.map((index) => index.name);
  if (names.join() !== INDEX_NAMES.join())
    problems.push(
      `manifest.index: expected the indexes ${INDEX_NAMES.join(", ")} in that order, found ${names.join(", ") || "none"}`,
    );
  manifest.index.forEach(({ segments }, i) => {
    segments.forEach((segment, position) => {
      const where = `manifest.index[${i}].segments[${position}]`;
      if (segment.index !== position) problems.push(`${where}.index: expected ${position}, found ${segment.index}`);
      const previous = segments[position - 1];
      if (previous && !(previous.first < segment.first))
        problems.push(`${where}.first: must sort after the previous segment's first key`);
      if (segment.directory_offset >= segment.length)
        problems.push(
          `${where}.directory_offset: ${segment.directory_offset} is not inside the segment's ${segment.length} bytes`,
        );
    });
  });
  return problems;
}

/** True when two manifests carry the same index (both must have one). */
export function sameIndex(a: Manifest, b: Manifest): boolean {
  const digests = (manifest: Manifest) =>
    JSON.stringify(
      manifest.index?.map((index) => [index.name, index.page_bytes, index.segments.map((s) => [s.length, s.sha256])]),
    );
  return digests(a) === digests(b);
}

/** True when two manifests describe the same bytes cut the same way (published_at aside). */
export function sameLayout(a: Manifest, b: Manifest): boolean {
  return (
    a.release_id === b.release_id &&
    a.sha256 === b.sha256 &&
    a.bytes === b.bytes &&
    a.part_bytes === b.part_bytes &&
    a.parts.length === b.parts.length &&
    a.parts.every((part, i) => part.sha256 === b.parts[i]?.sha256 && part.length === b.parts[i]?.length)
  );
}
