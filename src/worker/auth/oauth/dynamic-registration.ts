/**
 * Dynamic client registration (RFC 7591), which MCP hosts use to register themselves: the
 * library's own endpoint (`clientRegistrationEndpoint`), held to what this server accepts: public
 * clients only (`token_endpoint_auth_method: "none"`, so PKCE is their only proof, which every
 * client here needs anyway) with https or loopback http redirect URIs (redirect-uri.ts, as the
 * operator CLI), every stored string bounded (registration-bounds.ts). Registrations expire when
 * unused: the library stores them with a TTL and renews one only when its client exchanges tokens
 * past half of it. How many may be made is bounded by registration-endpoint.ts.
 */
import type { ClientRegistrationCallbackResult } from "@cloudflare/workers-oauth-provider";
import { redirectUriProblem } from "../../../common/auth/redirect-uri";
import { MAX_LIST_ENTRIES, registrationBoundProblems } from "./registration-bounds";

export const CLIENT_REGISTRATION_ENDPOINT = "/oauth/register";
/** An unused registration is gone after this (a used one is renewed by each token request past half of it). */
export const CLIENT_REGISTRATION_TTL_SECONDS = 7 * 24 * 3600;

type Refusal = Required<Pick<ClientRegistrationCallbackResult, "code" | "description" | "status">>;

const refuse = (description: string): Refusal => ({
  code: "invalid_client_metadata",
  description,
  status: 400,
});

/**
 * Every reason the metadata cannot be registered here, in one description, or undefined. Run by
 * registration-endpoint.ts on the request's JSON before the library sees it (the library's own
 * checks would answer first, with a generic "Invalid redirect URI"), and by the library after it
 * parsed the metadata, before it stores the client.
 */
export function checkRegistration({
  clientMetadata,
}: {
  clientMetadata: Record<string, unknown>;
}): Refusal | undefined {
  const problems: string[] = [];
  if (clientMetadata.token_endpoint_auth_method !== "none")
    problems.push(
      'token_endpoint_auth_method must be "none": only public clients with PKCE register here (confidential clients: ask an operator)',
    );
  const uris = clientMetadata.redirect_uris;
  if (!Array.isArray(uris) || uris.length === 0) problems.push("redirect_uris must list at least one URI");
  else if (uris.length <= MAX_LIST_ENTRIES) {
    uris.forEach((uri: unknown, index) => {
      const problem = typeof uri === "string" ? redirectUriProblem(uri) : "a redirect URI must be a string";
      if (problem) problems.push(`redirect_uris[${index}]: ${problem}`);
    });
  }
  problems.push(...registrationBoundProblems(clientMetadata));
  return problems.length ? refuse(problems.join("; ")) : undefined;
}

export const dynamicRegistrationOptions = {
  clientRegistrationEndpoint: CLIENT_REGISTRATION_ENDPOINT,
  clientRegistrationTTL: CLIENT_REGISTRATION_TTL_SECONDS,
  clientRegistrationCallback: checkRegistration,
};
