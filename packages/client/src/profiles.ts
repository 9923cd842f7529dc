/**
 * Every profile of one release, streamed part by part from its pinned URLs. A part's profiles are
 * handed out only once that part matched its sha256 in the manifest; a profile that spans parts,
 * once the part that completes it did. At the end the whole document, artifact_sha256 and the
 * profile count are checked: if they fail, the profiles already handed out still came from parts
 * that matched the manifest, but the release as a whole did not verify (CatalogVerificationError).
 * Memory holds one part's profiles, whatever the catalog's size.
 */
import { DocumentCheck } from "./document-check.js";
import { CatalogVerificationError } from "./errors.js";
import { ArrayElementScanner, JsonStructureError, type ScannedElement } from "./json-elements.js";
import { fetchPart, type ReleaseSource } from "./release-parts.js";
import type { Profile, Progress } from "./types.js";

export async function* streamProfiles(
  source: ReleaseSource,
  onProgress?: (progress: Progress) => void,
): AsyncGenerator<Profile, void, undefined> {
  const { manifest } = source;
  const check = new DocumentCheck(manifest);
  const scanner = new ArrayElementScanner();
  const progress: Progress = {
    phase: "download",
    bytesDone: 0,
    bytesTotal: manifest.bytes,
    partsDone: 0,
    partsTotal: manifest.parts.length,
    partsReused: 0,
  };
  let count = 0;
  for (const part of manifest.parts) {
    const completed: ScannedElement[] = [];
    await fetchPart(source, part, async (chunk, offset) => {
      await check.add(chunk, offset);
      for (const element of scanner.push(check.dataOf(chunk, offset))) completed.push(element);
      progress.bytesDone += chunk.length;
      onProgress?.({ ...progress });
    });
    progress.partsDone++;
    onProgress?.({ ...progress });
    for (const element of completed) {
      source.signal?.throwIfAborted();
      yield parseProfile(element);
      count++;
    }
  }
  endOfData(scanner);
  await check.finish();
  if (count !== manifest.profile_count)
    throw new CatalogVerificationError(`the data holds ${count} profiles, the manifest says ${manifest.profile_count}`);
  onProgress?.({ ...progress, phase: "verified" });
}

const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });

function parseProfile(element: ScannedElement): Profile {
  let value: unknown;
  try {
    value = JSON.parse(utf8.decode(element.bytes));
  } catch (error) {
    throw new CatalogVerificationError(
      `profile ${element.index} of data is not valid JSON: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  const id = (value as { agent_readiness_profile_id?: unknown } | null)?.agent_readiness_profile_id;
  if (typeof id !== "string")
    throw new CatalogVerificationError(
      `element ${element.index} of data is not a profile (no agent_readiness_profile_id)`,
    );
  return value as Profile;
}

function endOfData(scanner: ArrayElementScanner): void {
  try {
    scanner.end();
  } catch (error) {
    if (!(error instanceof JsonStructureError)) throw error;
    throw new CatalogVerificationError(
      `data is not a JSON array of profiles: ${error.message} (line ${error.line}, column ${error.column} of data)`,
    );
  }
}
