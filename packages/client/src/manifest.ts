/**
 * A release's manifest as the client accepts it: the fields it relies on, with their types; parts
 * that tile the document; and a release id that is the digest of api_contract and artifact_sha256.
 * Fields it does not know are kept (a newer server may add some).
 */
import { CatalogVerificationError } from "./errors.js";
import type { CatalogHttp } from "./http-client.js";
import { releaseIdOf } from "./protocol/digests.js";
import { layoutProblems, type PartLayout } from "./protocol/layout.js";
import type { Manifest } from "./types.js";

const DIGEST = /^sha256:[0-9a-f]{64}$/;
/** The contract this client speaks (README "Catalog"): `<namespace>.catalog-api/v1`. */
const CONTRACT = /\.catalog-api\/v1$/;

/** `sha256:<hex>` for a release id given as `sha256:<hex>` or `<hex>`. */
export const releaseIdFrom = (id: string) => (id.startsWith("sha256:") ? id : `sha256:${id}`);

/**
 * A caller's value as one path segment. The server says precisely what is wrong with a malformed
 * key or id (400), but "", "." and ".." would address another path (RFC 3986 §5.2.4), so they go nowhere.
 */
export function pathSegment(value: string): string {
  if (value === "" || value === "." || value === "..") throw new TypeError(`"${value}" is not a key, id or release id`);
  // ":" is a path character (RFC 3986 §3.3): release ids keep their readable sha256:<hex> form.
  return encodeURIComponent(value).replaceAll("%3A", ":");
}

/** GET a manifest (current, or pinned by `release`) and check everything it promises about itself. */
export async function fetchManifest(
  http: CatalogHttp,
  baseUrl: string,
  release: string | undefined,
  signal?: AbortSignal,
): Promise<Manifest> {
  const path = release === undefined ? "/v1/releases/current" : `/v1/releases/${pathSegment(releaseIdFrom(release))}`;
  const url = new URL(path, baseUrl).href;
  const response = await http.get(url, { signal });
  const manifest = parseManifest(await response.json().catch(() => undefined), url);
  const header = response.headers.get("Catalog-Release");
  if (header !== manifest.release_id)
    throw new CatalogVerificationError(
      `${url}: Catalog-Release ${header} does not name the manifest's release ${manifest.release_id}`,
    );
  if (release !== undefined && manifest.release_id !== releaseIdFrom(release)) {
    throw new CatalogVerificationError(`${url}: answered with release ${manifest.release_id}`);
  }
  const expectedId = await releaseIdOf(manifest.api_contract, manifest.artifact_sha256);
  if (manifest.release_id !== expectedId)
    throw new CatalogVerificationError(
      `release_id does not match: computed ${expectedId}, expected ${manifest.release_id}`,
    );
  return manifest;
}

export function parseManifest(value: unknown, where: string): Manifest {
  const problems = manifestProblems(value);
  if (problems.length) throw new CatalogVerificationError(`${where}: not a valid manifest: ${problems.join("; ")}`);
  return value as Manifest;
}

function manifestProblems(value: unknown): string[] {
  if (!isRecord(value)) return ["not a JSON object"];
  const problems: string[] = [];
  for (const field of ["release_id", "artifact_sha256", "sha256"]) {
    if (typeof value[field] !== "string" || !DIGEST.test(value[field]))
      problems.push(`${field} is not sha256:<64 hex>`);
  }
  if (typeof value.api_contract !== "string" || !CONTRACT.test(value.api_contract))
    problems.push("api_contract is not <namespace>.catalog-api/v1");
  for (const field of ["bytes", "part_bytes"])
    if (!isCount(value[field]) || value[field] === 0) problems.push(`${field} is not a positive integer`);
  if (!isCount(value.profile_count)) problems.push("profile_count is not an integer ≥ 0");
  if (value.published_at !== null && typeof value.published_at !== "string")
    problems.push("published_at is not a string or null");
  if (!Array.isArray(value.parts) || value.parts.length === 0) return [...problems, "parts is not a non-empty array"];
  return problems.length ? problems : tilingProblems(value.parts, value.bytes as number, value.part_bytes as number);
}

/** Each part's fields have their types; how the parts tile the document is protocol/layout.ts's check. */
function tilingProblems(parts: unknown[], bytes: number, partBytes: number): string[] {
  for (const [position, part] of parts.entries()) {
    const where = `parts[${position}]`;
    if (!isRecord(part) || typeof part.sha256 !== "string" || !DIGEST.test(part.sha256))
      return [`${where} has no sha256:<64 hex>`];
    if (!isCount(part.index) || !isCount(part.offset) || !isCount(part.length))
      return [`${where}: index, offset and length must be integers ≥ 0`];
  }
  return layoutProblems({ bytes, part_bytes: partBytes, parts: parts as PartLayout[] }, "");
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);
const isCount = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0;
