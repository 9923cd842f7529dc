/**
 * Authorization codes at /oauth/token and /oauth/authorize. PKCE syntax (RFC 7636 §4.1, §4.2): a
 * verifier is 43–128 characters of [A-Za-z0-9-._~], and an S256 challenge is 43 base64url
 * characters; a verifier outside that syntax is refused before it is compared, even when it hashes
 * to the stored challenge. And one code, redeemed concurrently, gives one grant.
 */
import { describe, expect, it } from "vitest";
import { expectDefined } from "../../src/common/expect";
import * as oauth from "./oauth-support";

/** A code whose challenge is `verifier`'s, then the exchange with that same verifier. */
async function exchangeWithVerifier(verifier: string) {
  const account = await oauth.createCustomer();
  const { clientId } = await oauth.registerClient();
  const code = await oauth.authorizationCode({ clientId, challenge: await oauth.s256Challenge(verifier), account });
  const res = await oauth.tokenRequest(oauth.codeExchange(clientId, code, verifier));
  return { status: res.status, body: await res.json<oauth.TokenBody>() };
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
    it(`refuses the S256 challenge ${JSON.stringify(challenge)} as invalid_request on our page`, async () => {
      const url = await oauth.newClientAuthorizeUrl({ code_challenge: challenge });
      await oauth.expectRefusedOnOurPage(url, "invalid_request", /code_challenge must be 43 base64url characters/);
    });
  }
});

const CONCURRENT_REDEMPTIONS = 12;

async function exchange(clientId: string, code: string, verifier: string) {
  const res = await oauth.tokenRequest(oauth.codeExchange(clientId, code, verifier));
  return { status: res.status, body: await res.json<oauth.TokenBody>() };
}

const cheeses = (token: string) => oauth.bearerGet("/v2/cheeses", token);

async function freshCode() {
  const { clientId, verifier, code } = await oauth.authorizedCode();
  return { clientId, code, verifier };
}

describe("one code, redeemed concurrently", () => {
  it(`${CONCURRENT_REDEMPTIONS} simultaneous redemptions: exactly one gets tokens, the rest invalid_grant, and the grant is revoked`, async () => {
    const { clientId, code, verifier } = await freshCode();
    const results = await Promise.all(
      Array.from({ length: CONCURRENT_REDEMPTIONS }, () => exchange(clientId, code, verifier)),
    );

    const winners = results.filter((result) => result.status === 200);
    expect(winners).toHaveLength(1);
    const losers = results.filter((result) => result.status !== 200);
    expect(losers.map((result) => [result.status, result.body.error])).toEqual(
      Array.from({ length: CONCURRENT_REDEMPTIONS - 1 }, () => [400, "invalid_grant"]),
    );

    // The code was used twice: the tokens issued from it stop working (RFC 6749 §4.1.2).
    const tokens = expectDefined(winners[0], "the one redemption that got tokens").body;
    expect((await cheeses(tokens.access_token)).status).toBe(401);
    const refreshed = await oauth.refreshRequest(clientId, tokens.refresh_token);
    expect([refreshed.status, (await refreshed.json<oauth.TokenBody>()).error]).toEqual([400, "invalid_grant"]);
  });

  it("a single redemption is untouched: its tokens work and refresh", async () => {
    const { clientId, code, verifier } = await freshCode();
    const first = await exchange(clientId, code, verifier);
    expect(first.status).toBe(200);
    expect((await cheeses(first.body.access_token)).status).toBe(200);
    const refreshed = await oauth.refreshRequest(clientId, first.body.refresh_token);
    expect(refreshed.status).toBe(200);
  });

  it("a redemption that fails the PKCE check does not use the code up: the client's own redemption still succeeds", async () => {
    const { clientId, code, verifier } = await freshCode();
    const { verifier: wrong } = await oauth.pkcePair();
    expect((await exchange(clientId, code, wrong)).body.error).toBe("invalid_grant");
    const own = await exchange(clientId, code, verifier);
    expect(own.status).toBe(200);
    expect((await cheeses(own.body.access_token)).status).toBe(200);
  });
});
