/**
 * Which `client_id`s are Client ID Metadata Documents (draft-ietf-oauth-client-id-metadata-document,
 * MCP authorization 2025-11-25), and why one cannot be fetched. Pure.
 *
 * Every `client_id` that starts with `https://` or `http://` is one: the ids this server gives out
 * (dynamic registration, operator CLI) are base64url and never contain a colon. Its address must be
 * one this worker may reach (src/worker/http/outbound/target-url.ts, the rules of webhook
 * deliveries), and the draft's own URL rules hold.
 */
import { targetUrlProblems } from "../../../http/outbound/target-url";

export const isMetadataDocumentClientId = (clientId: string): boolean => /^https?:\/\//i.test(clientId);

/** Every reason the document at `clientId` may not be fetched; empty when it may. */
export function documentUrlProblems(clientId: string, options: { allowLoopback: boolean }): string[] {
  const problems = targetUrlProblems(clientId, options);
  // CIMD §3: a path component, and no `.` or `..` segment (the WHATWG parser would resolve them).
  const path = rawPath(clientId);
  if (path === "" || path === "/") problems.push("must have a path (such as /oauth/client.json), CIMD §3");
  const segments = path.split("/").map((segment) => segment.replaceAll(/%2e/gi, "."));
  if (segments.some((segment) => segment === "." || segment === ".."))
    problems.push("must not contain . or .. path segments, CIMD §3");
  return problems;
}

/** The path as written (not as `new URL()` normalizes it): from the first `/` after the authority. */
function rawPath(url: string): string {
  const afterScheme = url.slice(url.indexOf("//") + 2);
  const authorityEnd = afterScheme.search(/[/?#]/);
  if (authorityEnd === -1 || afterScheme[authorityEnd] !== "/") return "";
  const rest = afterScheme.slice(authorityEnd);
  const pathEnd = rest.search(/[?#]/);
  return pathEnd === -1 ? rest : rest.slice(0, pathEnd);
}
