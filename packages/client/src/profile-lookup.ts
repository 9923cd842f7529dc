/**
 * One profile by product and funnel key, or by id, from the current release or a pinned one
 * (`GET /v1/profiles/…`, `GET /v1/releases/{id}/profiles/…`). The body must match its
 * Content-Digest (RFC 9530) and be the profile that was asked for; the answer names its release.
 */
import { CatalogVerificationError } from "./errors.js";
import type { CatalogHttp } from "./http-client.js";
import { pathSegment, releaseIdFrom } from "./manifest.js";
import { asDigest, contentDigestOf, toHex } from "./protocol/digests.js";
import type { CallOptions, Profile } from "./types.js";

export interface ProfileOptions extends CallOptions {
  /** A release id (`sha256:<hex>` or `<hex>`) to read instead of the current release. */
  release?: string;
}

export interface ProfileResult {
  profile: Profile;
  /** The release the profile was read from (`Catalog-Release`). */
  releaseId: string;
  /** Where the profile's bytes are in that release's document (`Catalog-Document-Range`), if the server said. */
  documentRange: { first: number; last: number; size: number } | null;
}

export type ProfileQuery = { id: string } | { product: string; funnel: string };

const RELEASE_ID = /^sha256:[0-9a-f]{64}$/;
const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });

export async function lookUpProfile(
  http: CatalogHttp,
  baseUrl: string,
  query: ProfileQuery,
  options: ProfileOptions = {},
): Promise<ProfileResult> {
  const url = new URL(profilePath(query, options.release), baseUrl).href;
  const response = await http.get(url, { signal: options.signal });
  const bytes = new Uint8Array(await response.arrayBuffer());
  const releaseId = response.headers.get("Catalog-Release") ?? "";
  if (!RELEASE_ID.test(releaseId))
    throw new CatalogVerificationError(`${url}: Catalog-Release is ${releaseId ? `"${releaseId}"` : "missing"}`);
  if (options.release !== undefined && releaseId !== releaseIdFrom(options.release))
    throw new CatalogVerificationError(`${url}: answered from release ${releaseId}`);
  await checkContentDigest(response.headers.get("Content-Digest"), bytes, url);
  const documentRange = parseDocumentRange(response.headers.get("Catalog-Document-Range"), bytes.length, url);
  const profile = parseProfile(bytes, url);
  const found =
    "id" in query ? profile.agent_readiness_profile_id : `${profile.scope?.product?.key} ${profile.scope?.funnel?.key}`;
  const asked = "id" in query ? query.id : `${query.product} ${query.funnel}`;
  if (found !== asked)
    throw new CatalogVerificationError(`${url}: answered with the profile of ${found}, not ${asked}`);
  return { profile, releaseId, documentRange };
}

function profilePath(query: ProfileQuery, release: string | undefined): string {
  const base = release === undefined ? "/v1" : `/v1/releases/${pathSegment(releaseIdFrom(release))}`;
  const key = "id" in query ? pathSegment(query.id) : `${pathSegment(query.product)}/${pathSegment(query.funnel)}`;
  return `${base}/profiles/${key}`;
}

/** RFC 9530 §2: a Dictionary; its sha-256 member must be the digest of the body. */
async function checkContentDigest(header: string | null, bytes: Uint8Array, url: string): Promise<void> {
  const member = header
    ?.split(",")
    .map((item) => item.trim())
    .find((item) => item.startsWith("sha-256="));
  if (!member)
    throw new CatalogVerificationError(
      `${url}: Content-Digest has no sha-256 (${header === null ? "missing" : `"${header}"`})`,
    );
  const computed = contentDigestOf(
    asDigest(toHex(await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>))),
  );
  if (member !== computed)
    throw new CatalogVerificationError(
      `${url}: the body does not match its Content-Digest: computed ${computed}, the server sent ${member}`,
    );
}

/** `bytes <first>-<last>/<size>`, as Content-Range (RFC 9110 §14.4); its length must be the body's. */
function parseDocumentRange(header: string | null, length: number, url: string): ProfileResult["documentRange"] {
  if (header === null) return null;
  const match = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(header);
  const [first, last, size] = match ? [Number(match[1]), Number(match[2]), Number(match[3])] : [NaN, NaN, NaN];
  if (!match || last - first + 1 !== length || last >= size)
    throw new CatalogVerificationError(
      `${url}: Catalog-Document-Range "${header}" does not fit the ${length}-byte body`,
    );
  return { first, last, size };
}

function parseProfile(bytes: Uint8Array, url: string): Profile {
  let value: unknown;
  try {
    value = JSON.parse(utf8.decode(bytes));
  } catch (error) {
    throw new CatalogVerificationError(
      `${url}: the body is not JSON: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  if (
    typeof value !== "object" ||
    value === null ||
    typeof (value as Profile).agent_readiness_profile_id !== "string"
  ) {
    throw new CatalogVerificationError(`${url}: the body is not a profile`);
  }
  return value as Profile;
}
