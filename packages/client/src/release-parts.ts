/**
 * One part of a pinned release, fetched and checked against the manifest (README "Paging and
 * verifying"): Catalog-Release, Catalog-Part, Content-Length, Content-Digest (RFC 9530) and
 * Link rel="next" (RFC 8288) before the body; the body's length and sha256 after it. The chunks are
 * handed on as they arrive, so memory holds one chunk; the part is known good only when this returns.
 */
import { readChunk } from "./abortable-read.js";
import { CatalogVerificationError } from "./errors.js";
import type { CatalogHttp } from "./http-client.js";
import { contentDigestOf } from "./protocol/digests.js";
import { createSha256 } from "./sha256-stream.js";
import type { Manifest, PartEntry } from "./types.js";

export interface ReleaseSource {
  http: CatalogHttp;
  baseUrl: string;
  manifest: Manifest;
  signal?: AbortSignal;
}

export type ChunkSink = (chunk: Uint8Array, offset: number) => void | Promise<void>;

export const partUrl = (source: ReleaseSource, index: number) =>
  new URL(`/v1/releases/${source.manifest.release_id}/parts/${index}`, source.baseUrl).href;

export async function fetchPart(source: ReleaseSource, part: PartEntry, sink: ChunkSink): Promise<void> {
  const url = partUrl(source, part.index);
  const response = await source.http.get(url, { signal: source.signal });
  try {
    checkHeaders(response, source.manifest, part, url);
    checkNextLink(response, source, part, url);
  } catch (error) {
    await response.body?.cancel();
    throw error;
  }
  const hash = createSha256();
  let received = 0;
  for await (const chunk of chunksOf(response, source.signal)) {
    if (received + chunk.length > part.length)
      throw new CatalogVerificationError(
        `part ${part.index}: the body is longer than the manifest's ${part.length} bytes`,
      );
    await hash.update(chunk);
    await sink(chunk, part.offset + received);
    received += chunk.length;
  }
  if (received !== part.length)
    throw new CatalogVerificationError(
      `part ${part.index}: received ${received} bytes, the manifest says ${part.length}`,
    );
  expectDigest(`part ${part.index}`, await hash.digest(), part.sha256);
}

export function expectDigest(what: string, found: string, expected: string): void {
  if (found !== expected)
    throw new CatalogVerificationError(`${what} does not match: computed ${found}, expected ${expected}`);
}

function checkHeaders(response: Response, manifest: Manifest, part: PartEntry, url: string): void {
  const expected: Record<string, string> = {
    "Catalog-Release": manifest.release_id,
    "Catalog-Part": `${part.index}/${manifest.parts.length}`,
    "Content-Digest": contentDigestOf(part.sha256),
    "Content-Length": String(part.length),
  };
  for (const [name, value] of Object.entries(expected)) {
    const found = response.headers.get(name);
    if (found !== value)
      throw new CatalogVerificationError(
        `${url}: ${name} is ${found === null ? "missing" : `"${found}"`}, expected "${value}"`,
      );
  }
}

/** RFC 8288 Link rel="next" must name the next part of the same release, and only while there is one. */
function checkNextLink(response: Response, source: ReleaseSource, part: PartEntry, url: string): void {
  const target = /<([^>]*)>\s*;\s*rel="?next"?/.exec(response.headers.get("Link") ?? "")?.[1];
  if (part.index === source.manifest.parts.length - 1) {
    if (target !== undefined)
      throw new CatalogVerificationError(`part ${part.index} is the last one, yet Link rel=next points at ${target}`);
    return;
  }
  const expected = partUrl(source, part.index + 1);
  const next = target === undefined ? undefined : new URL(target, url).href;
  if (next !== expected)
    throw new CatalogVerificationError(
      `part ${part.index}: Link rel=next is ${next ?? "missing"}, expected ${expected}`,
    );
}

async function* chunksOf(response: Response, signal: AbortSignal | undefined): AsyncGenerator<Uint8Array> {
  if (!response.body) return;
  const reader = response.body.getReader();
  try {
    for (;;) {
      const { done, value } = await readChunk(reader, signal);
      if (done) return;
      yield value;
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
}
