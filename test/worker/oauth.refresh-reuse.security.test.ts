/**
 * Refresh-token rotation with reuse detection (RFC 9700 §4.14.2): a refresh token that was rotated
 * away, presented again, means two parties hold the grant's tokens, so the whole grant ends: every
 * access and refresh token of it, at once. The library's grace window (the previous token stays
 * usable until the new one is used) counts as reuse too.
 */
import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { grantSubject } from "../../src/worker/auth/oauth/grant-guard";
import { grantOf, openToken } from "../../src/worker/auth/oauth/token-format";
import { authorizedCode, ORIGIN, registerClient, tokenRequest, type TokenBody } from "./oauth-support";

const CONCURRENT_REFRESHES = 8;

async function grantTokens() {
  const { clientId, exchange } = await authorizedCode();
  const res = await tokenRequest(exchange);
  expect(res.status).toBe(200);
  return { clientId, tokens: await res.json<TokenBody>() };
}

async function refresh(clientId: string, refreshToken: string, extra: Record<string, string> = {}) {
  const res = await tokenRequest({
    grant_type: "refresh_token",
    refresh_token: refreshToken,
    client_id: clientId,
    ...extra,
  });
  return { status: res.status, body: await res.json<TokenBody>() };
}

const cheeses = async (accessToken: string) =>
  (
    await exports.default.fetch(
      new Request(`${ORIGIN}/v2/cheeses`, { headers: { Authorization: `Bearer ${accessToken}` } }),
    )
  ).status;

const guardOf = async (tokens: TokenBody) =>
  env.SUBJECT_GUARDS.getByName(grantSubject(grantOf((await openToken(env, "access", tokens.access_token))!).grantId));

/** Every token of the grant is dead: each access token 401, each refresh token invalid_grant. */
async function expectGrantEnded(clientId: string, all: TokenBody[]) {
  for (const tokens of all) expect(await cheeses(tokens.access_token)).toBe(401);
  for (const tokens of all) expect((await refresh(clientId, tokens.refresh_token)).body.error).toBe("invalid_grant");
  expect((await (await guardOf(all[0]!)).describe()).revoked).toBe(true);
}

describe("a rotated-away refresh token presented again ends the grant", () => {
  it("RT0 → RT1 → RT2, then RT0: invalid_grant, and RT2 and every access token stop working", async () => {
    const { clientId, tokens: first } = await grantTokens();
    const second = (await refresh(clientId, first.refresh_token)).body;
    const third = (await refresh(clientId, second.refresh_token)).body;
    expect(await cheeses(third.access_token)).toBe(200);

    const reuse = await refresh(clientId, first.refresh_token);
    expect([reuse.status, reuse.body.error]).toEqual([400, "invalid_grant"]);
    expect(reuse.body.error_description).toMatch(/already used/);
    await expectGrantEnded(clientId, [first, second, third]);
  });

  it("inside the library's grace window: the client's RT0 → RT1, then a stolen RT0 gets nothing and RT1 dies too", async () => {
    const { clientId, tokens: first } = await grantTokens();
    const second = (await refresh(clientId, first.refresh_token)).body;

    const stolen = await refresh(clientId, first.refresh_token);
    expect([stolen.status, stolen.body.error, stolen.body.access_token]).toEqual([400, "invalid_grant", undefined]);
    await expectGrantEnded(clientId, [first, second]);
  });

  it("the attacker refreshes first with a stolen RT0; the real client's RT0 then ends the attacker's tokens", async () => {
    const { clientId, tokens: first } = await grantTokens();
    const attacker = (await refresh(clientId, first.refresh_token)).body;
    expect(await cheeses(attacker.access_token)).toBe(200);

    expect((await refresh(clientId, first.refresh_token)).body.error).toBe("invalid_grant");
    await expectGrantEnded(clientId, [first, attacker]);
  });

  it("at /oauth/revoke too: presenting a rotated-away refresh token ends the grant", async () => {
    const { clientId, tokens: first } = await grantTokens();
    const second = (await refresh(clientId, first.refresh_token)).body;
    const third = (await refresh(clientId, second.refresh_token)).body;
    const revoked = await exports.default.fetch(`${ORIGIN}/oauth/revoke`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ token: first.refresh_token, client_id: clientId }),
    });
    expect(revoked.status).toBe(200);
    await expectGrantEnded(clientId, [first, second, third]);
  });
});

describe(`${CONCURRENT_REFRESHES} simultaneous refreshes with one refresh token`, () => {
  it("at most one gets tokens, the rest invalid_grant, and the grant ends (the same token was used twice)", async () => {
    const { clientId, tokens: first } = await grantTokens();
    const results = await Promise.all(
      Array.from({ length: CONCURRENT_REFRESHES }, () => refresh(clientId, first.refresh_token)),
    );
    const winners = results.filter((result) => result.status === 200);
    expect(winners.length).toBeLessThanOrEqual(1);
    const losers = results.filter((result) => result.status !== 200);
    expect(losers.map((result) => [result.status, result.body.error])).toEqual(
      losers.map(() => [400, "invalid_grant"]),
    );
    await expectGrantEnded(clientId, [first, ...winners.map((winner) => winner.body)]);
  });
});

describe("a refresh that fails uses nothing up", () => {
  it("a refresh refused for its scope, or sent with another client's id, leaves the refresh token usable", async () => {
    const { clientId, tokens } = await grantTokens();
    const other = await registerClient();
    expect((await refresh(clientId, tokens.refresh_token, { scope: "write:orders" })).body.error).toBe("invalid_scope");
    expect((await refresh(other.clientId, tokens.refresh_token)).body.error).toBe("invalid_grant");

    const own = await refresh(clientId, tokens.refresh_token);
    expect(own.status).toBe(200);
    expect(await cheeses(own.body.access_token)).toBe(200);
    expect((await (await guardOf(tokens)).describe()).revoked).toBe(false);
  });

  it("a long chain of ordinary rotations keeps working", async () => {
    const { clientId, tokens } = await grantTokens();
    let current = tokens;
    for (let step = 0; step < 5; step++) {
      const next = await refresh(clientId, current.refresh_token);
      expect(next.status).toBe(200);
      current = next.body;
    }
    expect(await cheeses(current.access_token)).toBe(200);
  });
});
