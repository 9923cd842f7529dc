/**
 * Downloads the current release part by part from its pinned URLs and verifies everything the
 * manifest promises, streaming to a temporary file that is renamed into place only when every
 * check passed (memory holds one chunk at a time, never the document):
 * - each part: Catalog-Release, Catalog-Part, Content-Digest (RFC 9530) and Link rel=next as the
 *   manifest says, then its bytes against `parts[n].sha256`;
 * - the whole document against `sha256`; its prefix against the envelope the manifest implies;
 * - `artifact_sha256` against the bytes of `data` (the document is prefix + data + "}");
 * - `release_id` against sha256(JCS({api_contract, artifact_sha256})).
 */
import { createHash, type Hash } from "node:crypto";
import { open, rename, rm } from "node:fs/promises";
import { contentDigestOf, documentPrefix, releaseIdOf } from "../src/catalog/digest";
import { Manifest } from "../src/catalog/manifest";
import { layoutProblems } from "../src/catalog/release-check";
import type { createCatalogHttp } from "../packages/client/src/http-client.js";

/** The server sent something that does not match what it promised. */
export class IntegrityError extends Error {}

type CatalogHttp = ReturnType<typeof createCatalogHttp>;
type PartEntry = Manifest["parts"][number];
const digestOf = (hash: Hash) => `sha256:${hash.digest("hex")}`;

export async function downloadCurrentRelease(options: {
  http: CatalogHttp;
  baseUrl: string;
  out: string;
  onPart?: (done: number, count: number) => void;
}): Promise<Manifest> {
  const manifest = await currentManifest(options.http, options.baseUrl);
  const prefix = new TextEncoder().encode(documentPrefix(manifest.api_contract, manifest.release_id, manifest.artifact_sha256));
  const whole = createHash("sha256");
  const artifact = createHash("sha256");
  const temp = `${options.out}.partial-${process.pid}`;
  const file = await open(temp, "w");
  try {
    let url = new URL(partPath(manifest, 0), options.baseUrl).href;
    for (const part of manifest.parts) {
      const response = await options.http.get(url);
      checkPartHeaders(response, manifest, part, url);
      const partHash = createHash("sha256");
      let received = 0;
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        if (received + chunk.length > part.length) throw new IntegrityError(`part ${part.index}: the body is longer than the manifest's ${part.length} bytes`);
        const offset = part.offset + received;
        checkPrefix(chunk, offset, prefix);
        // artifact_sha256 covers the bytes of `data`: after the prefix, before the closing "}".
        const from = Math.max(0, prefix.length - offset);
        const to = Math.min(chunk.length, manifest.bytes - 1 - offset);
        if (to > from) artifact.update(chunk.subarray(from, to));
        partHash.update(chunk);
        whole.update(chunk);
        await file.write(chunk);
        received += chunk.length;
      }
      if (received !== part.length) throw new IntegrityError(`part ${part.index}: received ${received} bytes, the manifest says ${part.length}`);
      expectDigest(`part ${part.index}`, digestOf(partHash), part.sha256);
      options.onPart?.(part.index + 1, manifest.parts.length);
      url = nextPartUrl(response, url, manifest, part);
    }
    expectDigest("the whole document (sha256)", digestOf(whole), manifest.sha256);
    expectDigest("the data (artifact_sha256)", digestOf(artifact), manifest.artifact_sha256);
    await file.close();
    await rename(temp, options.out);
    return manifest;
  } catch (error) {
    await file.close().catch(() => {});
    await rm(temp, { force: true });
    throw error;
  }
}

async function currentManifest(http: CatalogHttp, baseUrl: string): Promise<Manifest> {
  const response = await http.get(new URL("/v1/releases/current", baseUrl).href);
  const parsed = Manifest.safeParse(await response.json());
  if (!parsed.success) throw new IntegrityError(`the current manifest is not valid: ${parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`).join("; ")}`);
  const manifest = parsed.data;
  const header = response.headers.get("Catalog-Release");
  if (header !== manifest.release_id) throw new IntegrityError(`Catalog-Release ${header} does not name the manifest's release ${manifest.release_id}`);
  const problems = layoutProblems(manifest);
  if (problems.length) throw new IntegrityError(`the current manifest's part layout is inconsistent: ${problems.join("; ")}`);
  expectDigest("release_id", await releaseIdOf(manifest.api_contract, manifest.artifact_sha256), manifest.release_id);
  return manifest;
}

const partPath = (manifest: Manifest, index: number) => `/v1/releases/${manifest.release_id}/parts/${index}`;

function checkPartHeaders(response: Response, manifest: Manifest, part: PartEntry, url: string) {
  const expected: Record<string, string> = {
    "Catalog-Release": manifest.release_id,
    "Catalog-Part": `${part.index}/${manifest.parts.length}`,
    "Content-Digest": contentDigestOf(part.sha256),
    "Content-Length": String(part.length),
  };
  for (const [name, value] of Object.entries(expected)) {
    const found = response.headers.get(name);
    if (found !== value) throw new IntegrityError(`${url}: ${name} is ${found === null ? "missing" : `"${found}"`}, expected "${value}"`);
  }
}

/** RFC 8288 Link rel="next" must name the next part of the same release, and only while there is one. */
function nextPartUrl(response: Response, url: string, manifest: Manifest, part: PartEntry): string {
  const target = /<([^>]*)>\s*;\s*rel="?next"?/.exec(response.headers.get("Link") ?? "")?.[1];
  const isLast = part.index === manifest.parts.length - 1;
  if (isLast) {
    if (target !== undefined) throw new IntegrityError(`part ${part.index} is the last one, yet Link rel=next points at ${target}`);
    return "";
  }
  const expected = new URL(partPath(manifest, part.index + 1), url).href;
  const next = target === undefined ? undefined : new URL(target, url).href;
  if (next !== expected) throw new IntegrityError(`part ${part.index}: Link rel=next is ${next ?? "missing"}, expected ${expected}`);
  return next;
}

function checkPrefix(chunk: Uint8Array, offset: number, prefix: Uint8Array) {
  for (let i = 0; offset + i < prefix.length && i < chunk.length; i++) {
    if (chunk[i] !== prefix[offset + i]) throw new IntegrityError(`byte ${offset + i} of the document differs from the envelope the manifest implies`);
  }
}

function expectDigest(what: string, found: string, expected: string) {
  if (found !== expected) throw new IntegrityError(`${what} does not match: computed ${found}, expected ${expected}`);
}
