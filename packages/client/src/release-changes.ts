/**
 * The changes between two releases (`GET /v1/releases/{id}/changes?since=`), every page, and the
 * bytes of chosen profiles of a pinned release fetched as byte ranges of its parts — what `sync`
 * needs to rebuild a document from the previous one. Web APIs only.
 */
import { CatalogVerificationError } from "./errors.js";
import type { CatalogHttp } from "./http-client.js";
import { partUrl, type ReleaseSource } from "./release-parts.js";
import { createSha256 } from "./sha256-stream.js";

/** One change as the API lists it; `offset`/`length`/`sha256` are the profile in the newer release. */
export interface ReleaseChange {
  change: "added" | "changed" | "removed";
  agent_readiness_profile_id: string;
  product_key: string;
  funnel_key: string;
  sha256?: string;
  offset?: number;
  length?: number;
  previous_sha256?: string;
  previous_offset?: number;
  previous_length?: number;
  href: string;
}

export interface ChangeList {
  changes: ReleaseChange[];
  /** Bytes of the list's pages as received. */
  bytes: number;
}

/** Every change from `since` to `releaseId`; a `since` no longer kept rejects with a 410 CatalogApiError. */
export async function fetchChanges(
  http: CatalogHttp,
  baseUrl: string,
  releaseId: string,
  since: string,
  signal?: AbortSignal,
): Promise<ChangeList> {
  const changes: ReleaseChange[] = [];
  let bytes = 0;
  let next: string | null = `/v1/releases/${releaseId}/changes?since=${since}&limit=1000`;
  while (next) {
    const url = new URL(next, baseUrl).href;
    const text = await (await http.get(url, { signal })).text();
    bytes += new TextEncoder().encode(text).length;
    const page = JSON.parse(text) as { release_id?: unknown; since?: unknown; data?: unknown; next?: unknown };
    if (page.release_id !== releaseId || page.since !== since || !Array.isArray(page.data))
      throw new CatalogVerificationError(`${url}: not the change list of ${releaseId} since ${since}`);
    changes.push(...(page.data as ReleaseChange[]));
    next = typeof page.next === "string" ? page.next : null;
  }
  return { changes, bytes };
}

/** A byte range of a release's document: [start, end). */
export interface DocumentRange {
  start: number;
  end: number;
}

/**
 * The document's bytes in `range`, as one buffer: one ranged GET per part the range touches,
 * each checked to be a 206 of that part of that release with the expected length.
 */
export async function fetchDocumentRange(source: ReleaseSource, range: DocumentRange): Promise<Uint8Array> {
  const { manifest } = source;
  const bytes = new Uint8Array(range.end - range.start);
  for (const part of manifest.parts) {
    const from = Math.max(range.start, part.offset);
    const to = Math.min(range.end, part.offset + part.length);
    if (from >= to) continue;
    const url = partUrl(source, part.index);
    const response = await source.http.get(url, {
      signal: source.signal,
      headers: { Range: `bytes=${from - part.offset}-${to - part.offset - 1}` },
    });
    const body = new Uint8Array(await response.arrayBuffer());
    const expected = `bytes ${from - part.offset}-${to - part.offset - 1}/${part.length}`;
    if (response.status !== 206 || response.headers.get("Content-Range") !== expected || body.length !== to - from)
      throw new CatalogVerificationError(
        `${url}: expected 206 with Content-Range "${expected}", got ${response.status} "${response.headers.get("Content-Range")}" and ${body.length} bytes`,
      );
    if (response.headers.get("Catalog-Release") !== manifest.release_id)
      throw new CatalogVerificationError(`${url}: Catalog-Release is not ${manifest.release_id}`);
    bytes.set(body, from - range.start);
  }
  return bytes;
}

/** Checks bytes against the `sha256:<hex>` the change list gave for them. */
export async function expectProfileDigest(bytes: Uint8Array, digest: string, id: string): Promise<void> {
  const hash = createSha256();
  await hash.update(bytes);
  const found = await hash.digest();
  if (found !== digest)
    throw new CatalogVerificationError(`profile ${id}: its bytes hash to ${found}, the change list says ${digest}`);
}

/** Groups the wanted ranges (sorted, disjoint) into fewer requests: neighbours closer than `gap` bytes merge. */
export function coalesce(wanted: readonly DocumentRange[], gap: number, maxBytes: number): DocumentRange[] {
  const merged: DocumentRange[] = [];
  for (const range of wanted) {
    const last = merged.at(-1);
    if (last && range.start - last.end <= gap && range.end - last.start <= maxBytes) last.end = range.end;
    else merged.push({ ...range });
  }
  return merged;
}
