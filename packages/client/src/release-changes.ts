/**
 * The changes between two releases (`GET /v1/releases/{id}/changes?since=`), every page, and the
 * bytes of the added and changed profiles in one body — what `sync` needs to rebuild a document
 * from the previous one. Web APIs only.
 */
import { readChunk } from "./abortable-read.js";
import { CatalogVerificationError } from "./errors.js";
import type { CatalogHttp } from "./http-client.js";
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

/**
 * The bytes of every added and changed profile since `since`, concatenated in list order
 * (`GET /v1/releases/{id}/changes/profiles`), read `length` bytes at a time.
 */
export async function openChangedProfiles(
  http: CatalogHttp,
  baseUrl: string,
  releaseId: string,
  since: string,
  signal?: AbortSignal,
): Promise<ByteReader> {
  const url = new URL(`/v1/releases/${releaseId}/changes/profiles?since=${since}`, baseUrl).href;
  const response = await http.get(url, { signal });
  if (response.headers.get("Catalog-Release") !== releaseId)
    throw new CatalogVerificationError(`${url}: Catalog-Release is not ${releaseId}`);
  return new ByteReader(response, url, signal);
}

/** Exact-length reads from a response body, a chunk at a time; each rejects once `signal` aborts. */
export class ByteReader {
  private readonly reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  private buffered = new Uint8Array(0);
  /** Bytes received so far. */
  received = 0;

  constructor(
    response: Response,
    private readonly url: string,
    private readonly signal?: AbortSignal,
  ) {
    this.reader = response.body?.getReader();
  }

  async read(length: number): Promise<Uint8Array> {
    while (this.buffered.length < length) {
      const next = this.reader ? await readChunk(this.reader, this.signal) : { done: true as const, value: undefined };
      if (next.done)
        throw new CatalogVerificationError(`${this.url}: the body ended ${length - this.buffered.length} bytes early`);
      this.received += next.value.length;
      const joined = new Uint8Array(this.buffered.length + next.value.length);
      joined.set(this.buffered);
      joined.set(next.value, this.buffered.length);
      this.buffered = joined;
    }
    const bytes = this.buffered.subarray(0, length);
    this.buffered = this.buffered.subarray(length);
    return bytes;
  }

  /** Fails if the body holds more than was read. */
  async finish(): Promise<void> {
    const next = this.reader ? await readChunk(this.reader, this.signal) : { done: true as const, value: undefined };
    if (this.buffered.length || !next.done) {
      await this.reader?.cancel();
      throw new CatalogVerificationError(`${this.url}: the body is longer than the change list's profiles`);
    }
  }

  async cancel(): Promise<void> {
    await this.reader?.cancel().catch(() => {});
  }
}

/** Checks bytes against the `sha256:<hex>` the change list gave for them. */
export async function expectProfileDigest(bytes: Uint8Array, digest: string, id: string): Promise<void> {
  const hash = createSha256();
  await hash.update(bytes);
  const found = await hash.digest();
  if (found !== digest)
    throw new CatalogVerificationError(`profile ${id}: its bytes hash to ${found}, the change list says ${digest}`);
}
