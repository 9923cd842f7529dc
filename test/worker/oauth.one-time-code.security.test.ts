import { describe, expect, it } from "vitest";
import {
  authorizedCode,
  bearerGet,
  codeExchange,
  pkcePair,
  refreshRequest,
  type TokenBody,
  tokenRequest,
} from "./oauth-support";

const CONCURRENT_REDEMPTIONS = 12;

async function exchange(clientId: string, code: string, verifier: string) {
  const res = await tokenRequest(codeExchange(clientId, code, verifier));
  return { status: res.status, body: await res.json<TokenBody>() };
}

const cheeses = (token: string) => bearerGet("/v2/cheeses", token);

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
    const refreshed = await refreshRequest(clientId, tokens.refresh_token);
    expect([refreshed.status, (await refreshed.json<TokenBody>()).error]).toEqual([400, "invalid_grant"]);
  });

  it("a single redemption is untouched: its tokens work and refresh", async () => {
    const { clientId, code, verifier } = await freshCode();
    const first = await exchange(clientId, code, verifier);
    expect(first.status).toBe(200);
    expect((await cheeses(first.body.access_token)).status).toBe(200);
    const refreshed = await refreshRequest(clientId, first.body.refresh_token);
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
