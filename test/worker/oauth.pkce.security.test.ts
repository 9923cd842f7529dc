/**
 * PKCE syntax (RFC 7636 §4.1, §4.2): a verifier is 43–128 characters of [A-Za-z0-9-._~], and an
 * S256 challenge is 43 base64url characters. A verifier outside that syntax is refused before it
 * is compared, even when it hashes to the stored challenge.
 */
import { describe, expect, it } from "vitest";
import {
  authorizationCode,
  authorizeUrl,
  Browser,
  codeExchange,
  createCustomer,
  registerClient,
  s256Challenge,
  standardParams,
  type TokenBody,
  tokenRequest,
} from "./oauth-support";

/** A code whose challenge is `verifier`'s, then the exchange with that same verifier. */
async function exchangeWithVerifier(verifier: string) {
  const account = await createCustomer();
  const { clientId } = await registerClient();
  const code = await authorizationCode({ clientId, challenge: await s256Challenge(verifier), account });
  const res = await tokenRequest(codeExchange(clientId, code, verifier));
  return { status: res.status, body: await res.json<TokenBody>() };
}

const UNRESERVED = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~";

describe("code_verifier syntax at /oauth/token (RFC 7636 §4.1)", () => {
  const malformed = {
    "42 characters": "a".repeat(42),
    "129 characters": "a".repeat(129),
    "a +": `${"a".repeat(50)}+b`,
    "a /": `${"a".repeat(50)}/b`,
    "a space": `${"a".repeat(50)} b`,
    "a non-ASCII letter": `${"a".repeat(50)}é`,
  };
  for (const [what, verifier] of Object.entries(malformed)) {
    it(`a verifier with ${what} is invalid_request, even though it matches the challenge`, async () => {
      const { status, body } = await exchangeWithVerifier(verifier);
      expect(status).toBe(400);
      expect(body.error).toBe("invalid_request");
      expect(body.error_description).toMatch(/code_verifier.*43.*128/);
      expect(body.access_token).toBeUndefined();
    });
  }

  for (const length of [43, 128]) {
    it(`a ${length}-character verifier using every unreserved character gets tokens`, async () => {
      const verifier = UNRESERVED.repeat(2).slice(0, length);
      const { status, body } = await exchangeWithVerifier(verifier);
      expect(status).toBe(200);
      expect(body.access_token).toMatch(/^oat_/);
    });
  }
});

describe("code_challenge syntax at /oauth/authorize (RFC 7636 §4.2)", () => {
  for (const challenge of ["a".repeat(42), "a".repeat(44), `${"a".repeat(42)}+`, `${"a".repeat(42)}=`]) {
    it(`refuses the S256 challenge ${JSON.stringify(challenge)} with an invalid_request redirect`, async () => {
      const { clientId } = await registerClient();
      const res = await new Browser().get(authorizeUrl(standardParams(clientId, challenge)));
      expect(res.status).toBe(302);
      const location = new URL(res.headers.get("Location")!);
      expect(location.searchParams.get("error")).toBe("invalid_request");
      expect(location.searchParams.get("error_description")).toMatch(/code_challenge must be 43 base64url characters/);
    });
  }
});
