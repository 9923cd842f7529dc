/**
 * Refresh-token rotation with reuse detection (RFC 9700 §4.14.2): a refresh token that was rotated
 * away, presented again, means two parties hold the grant's tokens, so the whole grant ends: every
 * access and refresh token of it, at once. The library's grace window (the previous token stays
 * usable until the new one is used) counts as reuse too.
 *
 * Revocation by a client that does not own the token (RFC 7009 §2.1): the server authenticates the
 * client, then checks the token was issued to it; if not, the request is refused
 * (`unauthorized_client`, RFC 7009 §2.2.1) and the token stays valid. A token that is not valid is
 * still no error (RFC 7009 §2.2).
 */
import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { expectDefined } from "../../src/common/expect";
import { grantOf, sealToken } from "../../src/worker/auth/oauth/token-format";
import * as oauth from "./oauth-support";

const CONCURRENT_REFRESHES = 8;

async function grantTokens() {
  const { clientId, exchange } = await oauth.authorizedCode();
  const res = await oauth.tokenRequest(exchange);
  expect(res.status).toBe(200);
  return { clientId, tokens: await res.json<oauth.TokenBody>() };
}

async function refresh(clientId: string, refreshToken: string, extra: Record<string, string> = {}) {
  const res = await oauth.tokenRequest({
    grant_type: "refresh_token",
    refresh_token: refreshToken,
    client_id: clientId,
    ...extra,
  });
  return { status: res.status, body: await res.json<oauth.TokenBody>() };
}

const cheeses = async (accessToken: string) =>
  (
    await exports.default.fetch(
      new Request(`${oauth.ORIGIN}/v2/cheeses`, { headers: { Authorization: `Bearer ${accessToken}` } }),
    )
  ).status;

/** Every token of the grant is dead: each access token 401, each refresh token invalid_grant. */
async function expectGrantEnded(clientId: string, all: oauth.TokenBody[]) {
  for (const tokens of all) expect(await cheeses(tokens.access_token)).toBe(401);
  for (const tokens of all) expect((await refresh(clientId, tokens.refresh_token)).body.error).toBe("invalid_grant");
  const first = expectDefined(all[0], "the grant's first tokens");
  expect((await (await oauth.grantGuardOf(first.access_token)).describe()).revoked).toBe(true);
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
    const revoked = await oauth.revokeRequest(first.refresh_token, { client_id: clientId });
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
    const other = await oauth.registerClient();
    expect((await refresh(clientId, tokens.refresh_token, { scope: "write:orders" })).body.error).toBe("invalid_scope");
    expect((await refresh(other.clientId, tokens.refresh_token)).body.error).toBe("invalid_grant");

    const own = await refresh(clientId, tokens.refresh_token);
    expect(own.status).toBe(200);
    expect(await cheeses(own.body.access_token)).toBe(200);
    expect((await (await oauth.grantGuardOf(tokens.access_token)).describe()).revoked).toBe(false);
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

async function ownersTokens() {
  const { clientId, exchange } = await oauth.authorizedCode();
  const res = await oauth.tokenRequest(exchange);
  return { clientId, tokens: await res.json<oauth.TokenBody>() };
}

const revoke = oauth.revokeRequest;

/** The owner's tokens still work: the access token on the API, the refresh token at /oauth/token. */
async function expectIntact(clientId: string, tokens: oauth.TokenBody) {
  expect(await cheeses(tokens.access_token)).toBe(200);
  const refreshed = await oauth.refreshRequest(clientId, tokens.refresh_token);
  expect(refreshed.status).toBe(200);
}

describe("another client asks to revoke the owner's token", () => {
  for (const kind of ["access_token", "refresh_token"] as const) {
    it(`a public client, the ${kind}: 400 unauthorized_client, and the owner's tokens keep working`, async () => {
      const { clientId, tokens } = await ownersTokens();
      const other = await oauth.registerClient();
      const res = await revoke(tokens[kind], { client_id: other.clientId });
      expect(res.status).toBe(400);
      const body = await res.json<{ error: string; error_description: string }>();
      expect(body.error).toBe("unauthorized_client");
      expect(body.error_description).toMatch(/not issued to this client/);
      expect(res.headers.get("Cache-Control")).toBe("no-store");
      await expectIntact(clientId, tokens);
    });
  }

  it("a confidential client authenticated with client_secret_post: refused the same way", async () => {
    const { clientId, tokens } = await ownersTokens();
    const other = await oauth.registerConfidentialClient();
    const res = await revoke(tokens.refresh_token, { client_id: other.clientId, client_secret: other.clientSecret });
    expect([res.status, (await res.json<{ error: string }>()).error]).toEqual([400, "unauthorized_client"]);
    await expectIntact(clientId, tokens);
  });

  it("authentication comes first: a wrong secret is 401 invalid_client, whoever owns the token", async () => {
    const { clientId, tokens } = await ownersTokens();
    const other = await oauth.registerClient({ public: false });
    const res = await revoke(tokens.access_token, { client_id: other.clientId, client_secret: "wrong" });
    expect([res.status, (await res.json<{ error: string }>()).error]).toEqual([401, "invalid_client"]);
    await expectIntact(clientId, tokens);
  });

  it("a token that is not valid (the owner's grant, a made-up secret) is no error: 200, and nothing changes", async () => {
    const { clientId, tokens } = await ownersTokens();
    const other = await oauth.registerClient();
    const { userId, grantId } = grantOf(await oauth.openedToken("refresh", tokens.refresh_token));
    for (const kind of ["access", "refresh"] as const) {
      const forged = await sealToken(env, kind, `${userId}:${grantId}:${"x".repeat(32)}`);
      expect((await revoke(forged, { client_id: other.clientId })).status).toBe(200);
    }
    await expectIntact(clientId, tokens);
  });
});

it("the owner's own revocation still ends the grant", async () => {
  const { clientId, tokens } = await ownersTokens();
  expect((await revoke(tokens.access_token, { client_id: clientId })).status).toBe(200);
  expect(await cheeses(tokens.access_token)).toBe(401);
  const refreshed = await oauth.refreshRequest(clientId, tokens.refresh_token);
  expect((await refreshed.json<oauth.TokenBody>()).error).toBe("invalid_grant");
});

describe("what the API says to a token that no longer works", () => {
  const problemFor = async (accessToken: string) => {
    const res = await exports.default.fetch(
      new Request(`${oauth.ORIGIN}/v2/cheeses`, { headers: { Authorization: `Bearer ${accessToken}` } }),
    );
    expect(res.status).toBe(401);
    expect(res.headers.get("WWW-Authenticate")).toContain('error="invalid_token"');
    return res.json<{ code: string; detail: string }>();
  };

  it("a revoked token: 401 invalid_token that says it was revoked", async () => {
    const { clientId, tokens } = await ownersTokens();
    expect((await revoke(tokens.refresh_token, { client_id: clientId })).status).toBe(200);
    const problem = await problemFor(tokens.access_token);
    expect(problem.code).toBe("invalid_token");
    expect(problem.detail).toMatch(/was revoked/);
    expect(problem.detail).not.toMatch(/unknown/);
  });

  it("a token that was never issued here is still unknown, not revoked", async () => {
    const { tokens } = await ownersTokens();
    const library = await oauth.openedToken("access", tokens.access_token);
    const { userId, grantId } = grantOf(library);
    const madeUp = await sealToken(env, "access", `${userId}:${grantId}:not-the-secret`);
    const problem = await problemFor(madeUp);
    expect(problem.detail).toMatch(/unknown, expired or was issued elsewhere/);
  });
});
