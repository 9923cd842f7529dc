/**
 * Revocation by a client that does not own the token (RFC 7009 §2.1): the server authenticates the
 * client, then checks the token was issued to it; if not, the request is refused
 * (`unauthorized_client`, RFC 7009 §2.2.1) and the token stays valid. A token that is not valid is
 * still no error (RFC 7009 §2.2).
 */
import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { grantOf, openToken, sealToken } from "../../src/worker/auth/oauth/token-format";
import { authorizedCode, ORIGIN, refreshRequest, registerClient, type TokenBody, tokenRequest } from "./oauth-support";

async function ownersTokens() {
  const { clientId, exchange } = await authorizedCode();
  const res = await tokenRequest(exchange);
  return { clientId, tokens: await res.json<TokenBody>() };
}

function revoke(token: string, fields: Record<string, string>): Promise<Response> {
  return exports.default.fetch(`${ORIGIN}/oauth/revoke`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ token, ...fields }),
  });
}

const cheeses = async (accessToken: string) =>
  (
    await exports.default.fetch(
      new Request(`${ORIGIN}/v2/cheeses`, { headers: { Authorization: `Bearer ${accessToken}` } }),
    )
  ).status;

/** The owner's tokens still work: the access token on the API, the refresh token at /oauth/token. */
async function expectIntact(clientId: string, tokens: TokenBody) {
  expect(await cheeses(tokens.access_token)).toBe(200);
  const refreshed = await refreshRequest(clientId, tokens.refresh_token);
  expect(refreshed.status).toBe(200);
}

describe("another client asks to revoke the owner's token", () => {
  for (const kind of ["access_token", "refresh_token"] as const) {
    it(`a public client, the ${kind}: 400 unauthorized_client, and the owner's tokens keep working`, async () => {
      const { clientId, tokens } = await ownersTokens();
      const other = await registerClient();
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
    const other = await registerClient({ public: false });
    const res = await revoke(tokens.refresh_token, { client_id: other.clientId, client_secret: other.clientSecret! });
    expect([res.status, (await res.json<{ error: string }>()).error]).toEqual([400, "unauthorized_client"]);
    await expectIntact(clientId, tokens);
  });

  it("authentication comes first: a wrong secret is 401 invalid_client, whoever owns the token", async () => {
    const { clientId, tokens } = await ownersTokens();
    const other = await registerClient({ public: false });
    const res = await revoke(tokens.access_token, { client_id: other.clientId, client_secret: "wrong" });
    expect([res.status, (await res.json<{ error: string }>()).error]).toEqual([401, "invalid_client"]);
    await expectIntact(clientId, tokens);
  });

  it("a token that is not valid (the owner's grant, a made-up secret) is no error: 200, and nothing changes", async () => {
    const { clientId, tokens } = await ownersTokens();
    const other = await registerClient();
    const { userId, grantId } = grantOf((await openToken(env, "refresh", tokens.refresh_token))!);
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
  const refreshed = await refreshRequest(clientId, tokens.refresh_token);
  expect((await refreshed.json<TokenBody>()).error).toBe("invalid_grant");
});

describe("what the API says to a token that no longer works", () => {
  const problemFor = async (accessToken: string) => {
    const res = await exports.default.fetch(
      new Request(`${ORIGIN}/v2/cheeses`, { headers: { Authorization: `Bearer ${accessToken}` } }),
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
    const library = (await openToken(env, "access", tokens.access_token))!;
    const { userId, grantId } = grantOf(library);
    const madeUp = await sealToken(env, "access", `${userId}:${grantId}:not-the-secret`);
    const problem = await problemFor(madeUp);
    expect(problem.detail).toMatch(/unknown, expired or was issued elsewhere/);
  });
});
