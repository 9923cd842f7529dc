/**
 * One-time authorization codes under concurrency (RFC 6749 §4.1.2, RFC 9700 §4.5.3): the library's
 * own check is a KV read then a write, so simultaneous redemptions of one code could all pass it.
 * Exactly one may succeed; any other is invalid_grant, and the grant's tokens are revoked.
 */
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { authorizedCode, ORIGIN, pkcePair, REDIRECT_URI, tokenRequest, type TokenBody } from "./oauth-support";

const CONCURRENT_REDEMPTIONS = 12;

async function exchange(clientId: string, code: string, verifier: string) {
  const res = await tokenRequest({
    grant_type: "authorization_code",
    code,
    redirect_uri: REDIRECT_URI,
    client_id: clientId,
    code_verifier: verifier,
  });
  return { status: res.status, body: await res.json<TokenBody>() };
}

const cheeses = (token: string) =>
  exports.default.fetch(new Request(`${ORIGIN}/v2/cheeses`, { headers: { Authorization: `Bearer ${token}` } }));

async function freshCode() {
  const { clientId, verifier, code } = await authorizedCode();
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
    const tokens = winners[0]!.body;
    expect((await cheeses(tokens.access_token)).status).toBe(401);
    const refreshed = await tokenRequest({
      grant_type: "refresh_token",
      refresh_token: tokens.refresh_token,
      client_id: clientId,
    });
    expect([refreshed.status, (await refreshed.json<TokenBody>()).error]).toEqual([400, "invalid_grant"]);
  });

  it("a single redemption is untouched: its tokens work and refresh", async () => {
    const { clientId, code, verifier } = await freshCode();
    const first = await exchange(clientId, code, verifier);
    expect(first.status).toBe(200);
    expect((await cheeses(first.body.access_token)).status).toBe(200);
    const refreshed = await tokenRequest({
      grant_type: "refresh_token",
      refresh_token: first.body.refresh_token,
      client_id: clientId,
    });
    expect(refreshed.status).toBe(200);
  });

  it("a redemption that fails the PKCE check does not use the code up: the client's own redemption still succeeds", async () => {
    const { clientId, code, verifier } = await freshCode();
    const { verifier: wrong } = await pkcePair();
    expect((await exchange(clientId, code, wrong)).body.error).toBe("invalid_grant");
    const own = await exchange(clientId, code, verifier);
    expect(own.status).toBe(200);
    expect((await cheeses(own.body.access_token)).status).toBe(200);
  });
});
