/**
 * A fetched Client ID Metadata Document, checked (CIMD §4.1) and turned into the client record the
 * library keeps. The document is held to what dynamic registration accepts (a public client with
 * PKCE, https or loopback redirect URIs, bounded strings: dynamic-registration.ts), plus what a
 * document must be: its `client_id` is its own URL, it names the client and carries no secret.
 */
import type { ClientInfo } from "../provider";
import { checkRegistration } from "../dynamic-registration";

/** Marks a record as a document's (`client:<url>` in OAUTH_KV): fresh until then (Unix seconds). */
export interface DocumentClient extends ClientInfo {
  metadataFreshUntil: number;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** Every reason `document` (fetched from `url`) is no client; empty when it is one. */
export function documentProblems(url: string, document: unknown): string[] {
  if (!isObject(document)) return ["is not a JSON object"];
  const problems: string[] = [];
  // CIMD §4.1: the client_id in the document must match the URL it was fetched from, exactly.
  if (document.client_id !== url)
    problems.push(`client_id must be the document's own URL, exactly (it is ${JSON.stringify(document.client_id)})`);
  if (typeof document.client_name !== "string" || document.client_name.trim() === "")
    problems.push("client_name is required (the name shown on the consent page)");
  // CIMD §4.1: a document is public, so a shared secret cannot be in it.
  for (const field of ["client_secret", "client_secret_expires_at"])
    if (field in document) problems.push(`${field} must not be in a public document`);
  const refusal = checkRegistration({
    clientMetadata: { ...document, token_endpoint_auth_method: document.token_endpoint_auth_method ?? "none" },
  });
  if (refusal) problems.push(...refusal.description.split("; "));
  return problems;
}

/** The record of a document that passed {@link documentProblems}. */
export function clientOfDocument(document: Record<string, unknown>, freshUntil: number): DocumentClient {
  const text = (field: string) => (typeof document[field] === "string" ? (document[field] as string) : undefined);
  return {
    clientId: String(document.client_id),
    clientName: text("client_name"),
    clientUri: text("client_uri"),
    logoUri: text("logo_uri"),
    redirectUris: (document.redirect_uris as string[]).slice(),
    tokenEndpointAuthMethod: "none",
    grantTypes: ["authorization_code", "refresh_token"],
    responseTypes: ["code"],
    registrationDate: Math.floor(Date.now() / 1000),
    metadataFreshUntil: freshUntil,
  };
}
