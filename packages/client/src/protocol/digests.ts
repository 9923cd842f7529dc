/**
 * The catalog's digests, shared by the worker, the build and the client (README "Paging and
 * verifying"). Web Crypto only, so Node and workerd share one definition. Incremental hashing of a
 * whole document is sha256-stream.ts's; nothing here is called per chunk.
 */
import { canonicalJson } from "./canonical.js";

const encoder = new TextEncoder();

export function toHex(bytes: ArrayBuffer | Uint8Array): string {
  const view = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
  let hex = "";
  for (const byte of view) hex += byte.toString(16).padStart(2, "0");
  return hex;
}

export async function sha256Hex(input: string | Uint8Array): Promise<string> {
  const bytes = typeof input === "string" ? encoder.encode(input) : input;
  return toHex(await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>));
}

export const asDigest = (hex: string) => `sha256:${hex}`;

/** `release_id` = sha256 of JCS({"api_contract":A,"artifact_sha256":H}). */
export async function releaseIdOf(apiContract: string, artifactSha256: string): Promise<string> {
  return asDigest(await sha256Hex(canonicalJson({ api_contract: apiContract, artifact_sha256: artifactSha256 })));
}

/** The document's bytes before JCS(data): keys in the spec's order, no whitespace. */
export function documentPrefix(apiContract: string, releaseId: string, artifactSha256: string): string {
  return (
    `{"api_contract":${JSON.stringify(apiContract)},"release_id":${JSON.stringify(releaseId)},` +
    `"artifact_sha256":${JSON.stringify(artifactSha256)},"data":`
  );
}
export const DOCUMENT_SUFFIX = "}";

/** RFC 9530 `Content-Digest` value for a `sha256:<hex>` digest. */
export function contentDigestOf(digest: string): string {
  const hex = digest.startsWith("sha256:") ? digest.slice(7) : digest;
  let binary = "";
  for (let i = 0; i < hex.length; i += 2) binary += String.fromCharCode(parseInt(hex.slice(i, i + 2), 16));
  return `sha-256=:${btoa(binary)}:`;
}
