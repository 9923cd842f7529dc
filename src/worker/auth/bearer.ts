/**
 * The pure `Authorization` parser: exactly `Bearer <credential>` (RFC 6750 §2.1), the scheme
 * matched case-insensitively (RFC 9110 §11.1) and separated by one space. Every deviation becomes a
 * failure whose detail names the problem, so the caller can answer 401 before any storage read.
 * Details never repeat the credential.
 *
 * @example
 * parseAuthorization("Bearer sk_test_…") // { ok: true, credential: { type: "api_key", secret, mode: "test" } }
 */
import { checkApiKeyFormat, type KeyMode } from "../../common/auth/api-key";

export const MAX_AUTHORIZATION_LENGTH = 512;

export type Credential = { type: "api_key"; secret: string; mode: KeyMode } | { type: "access_token"; token: string };

export type AuthorizationFailure = {
  ok: false;
  code: "unauthenticated" | "invalid_authorization_header" | "invalid_api_key";
  detail: string;
  /** RFC 6750 §3.1: `error="invalid_token"` only when the request carried a credential. */
  credentialSent: boolean;
};
export type AuthorizationParse = { ok: true; credential: Credential } | AuthorizationFailure;

const USAGE = "Send `Authorization: Bearer <API key>`.";

export function parseAuthorization(header: string | null | undefined): AuthorizationParse {
  if (header === null || header === undefined) {
    return { ok: false, code: "unauthenticated", credentialSent: false, detail: `No Authorization header. ${USAGE}` };
  }
  if (header.trim() === "") {
    return {
      ok: false,
      code: "unauthenticated",
      credentialSent: false,
      detail: `The Authorization header is empty. ${USAGE}`,
    };
  }
  const malformed = (detail: string): AuthorizationFailure => ({
    ok: false,
    code: "invalid_authorization_header",
    credentialSent: true,
    detail,
  });
  if (header.length > MAX_AUTHORIZATION_LENGTH) {
    return malformed(
      `The Authorization header is ${header.length} characters long; at most ${MAX_AUTHORIZATION_LENGTH} are accepted.`,
    );
  }
  // RFC 9110 §5.5: field values are visible US-ASCII here; anything else is not a credential.
  if (/[^\x20-\x7e\t]/.test(header)) {
    return malformed("The Authorization header contains non-ASCII or control characters; API keys are plain ASCII.");
  }
  if (header.includes(",")) {
    return malformed(
      "The Authorization header holds a comma-separated list (or two Authorization headers); send exactly one credential.",
    );
  }
  if (/^\s/.test(header)) return malformed(`The Authorization header starts with whitespace. ${USAGE}`);
  if (/\s$/.test(header))
    return malformed(`The Authorization header ends with whitespace after the credential. ${USAGE}`);

  const [scheme = "", credential, ...more] = header.split(" ");
  if (credential === undefined) {
    if (/\t/.test(header)) return malformed("A tab separates the scheme from the credential; use exactly one space.");
    if (scheme.toLowerCase() === "bearer")
      return malformed(`The Authorization header has the Bearer scheme but no credential. ${USAGE}`);
    return malformed(`The Authorization header is missing the "Bearer " prefix. ${USAGE}`);
  }
  if (scheme.toLowerCase() !== "bearer") {
    const shown = /^[A-Za-z][A-Za-z0-9-]{0,19}$/.test(scheme) ? `the ${scheme} scheme` : "an unknown scheme";
    return malformed(`The Authorization header uses ${shown}; this API accepts only Bearer. ${USAGE}`);
  }
  if (credential === "" || /\t/.test(header)) {
    return malformed("More than one space (or a tab) separates Bearer from the credential; use exactly one space.");
  }
  if (more.length > 0) return malformed("The Authorization header carries more than one credential; send exactly one.");

  return credentialOf(credential, malformed);
}

function credentialOf(value: string, malformed: (detail: string) => AuthorizationFailure): AuthorizationParse {
  // RFC 6750 §2.1 b64token, widened by ":" for OAuth tokens of the form user:grant:secret.
  if (!/^[A-Za-z0-9\-._~+/:]+=*$/.test(value)) {
    return malformed(
      "The credential contains characters that no API key or access token has (allowed: A-Z a-z 0-9 - . _ ~ + / :).",
    );
  }
  if (!value.startsWith("sk_")) return { ok: true, credential: { type: "access_token", token: value } };
  const format = checkApiKeyFormat(value);
  if (!format.ok) return { ok: false, code: "invalid_api_key", credentialSent: true, detail: format.detail };
  return { ok: true, credential: { type: "api_key", secret: value, mode: format.mode } };
}
