/** OAuth access tokens on the API: accepted like API keys, scope-checked, rate-limited per grant, revocable. */
import { exports } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import * as oauth from "./oauth-support";
import { publish, testRelease } from "./support/releases";

beforeAll(async () => {
  await publish(testRelease("base"));
});

const tokensFor = (scope: string) => oauth.consentedTokens({ scope });
const call = oauth.bearerGet;

function revoke(clientId: string, token: string) {
  return exports.default.fetch(`${oauth.ORIGIN}/oauth/revoke`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ token, client_id: clientId }),
  });
}

describe("Authorization: Bearer <access token>", () => {
  it("reads /v2/cheeses with read:cheeses and /v1/catalog with read:catalog, rate-limited per grant", async () => {
    const { tokens } = await tokensFor("read:cheeses read:catalog");
    const cheeses = await call("/v2/cheeses", tokens.access_token);
    expect(cheeses.status).toBe(200);
    expect(cheeses.headers.get("RateLimit-Policy")).toBeTruthy();
    const catalog = await call("/v1/catalog", tokens.access_token);
    expect(catalog.status).toBe(200);
    expect(catalog.headers.get("Catalog-Release")).toMatch(/^sha256:/);
    await catalog.body?.cancel();
    const guard = await (await oauth.grantGuardOf(tokens.access_token)).describe();
    expect(guard.lastUsedAt).not.toBeNull();
  });

  it("is scope-checked like an API key: 403 insufficient_scope naming the scope", async () => {
    const { tokens } = await tokensFor("read:catalog");
    const res = await call("/v2/cheeses", tokens.access_token);
    expect(res.status).toBe(403);
    expect(res.headers.get("WWW-Authenticate")).toContain('error="insufficient_scope"');
    expect(res.headers.get("WWW-Authenticate")).toContain('scope="read:cheeses"');
    expect((await res.json<{ code: string }>()).code).toBe("insufficient_scope");
    const cheesesOnly = await tokensFor("read:cheeses");
    const catalog = await call("/v1/catalog", cheesesOnly.tokens.access_token);
    expect(catalog.status).toBe(403);
    expect(catalog.headers.get("WWW-Authenticate")).toContain('scope="read:catalog"');
  });

  it("refuses a token that is not one of ours, and the library's raw token form, with 401 invalid_token", async () => {
    const { tokens } = await tokensFor("read:cheeses");
    for (const token of ["oat_bm9wZTpub3BlOm5vcGU", await oauth.openedToken("access", tokens.access_token)]) {
      const res = await call("/v2/cheeses", token);
      expect(res.status).toBe(401);
      expect(res.headers.get("WWW-Authenticate")).toContain('error="invalid_token"');
    }
  });

  it("after revocation of the access token, it and every other token of the grant get 401", async () => {
    const { clientId, tokens } = await tokensFor("read:cheeses");
    const refreshed = await (await oauth.refreshRequest(clientId, tokens.refresh_token)).json<oauth.TokenBody>();
    expect((await call("/v2/cheeses", tokens.access_token)).status).toBe(200);
    expect((await revoke(clientId, tokens.access_token)).status).toBe(200);
    for (const token of [tokens.access_token, refreshed.access_token]) {
      const res = await call("/v2/cheeses", token);
      expect(res.status).toBe(401);
      expect((await res.json<{ code: string }>()).code).toBe("invalid_token");
    }
    const again = await oauth.refreshRequest(clientId, refreshed.refresh_token);
    expect((await again.json<oauth.TokenBody>()).error).toBe("invalid_grant");
  });

  it("revocation by another client is refused (400 unauthorized_client) and changes nothing", async () => {
    const { tokens } = await tokensFor("read:cheeses");
    const other = await oauth.registerClient();
    expect((await revoke(other.clientId, tokens.access_token)).status).toBe(400);
    expect((await call("/v2/cheeses", tokens.access_token)).status).toBe(200);
  });

  it("a replayed code ends the grant at once: the SubjectGuard refuses the first tokens", async () => {
    const { clientId, code, verifier, tokens } = await tokensFor("read:cheeses");
    const replay = await oauth.tokenRequest(oauth.codeExchange(clientId, code, verifier));
    expect((await replay.json<oauth.TokenBody>()).error).toBe("invalid_grant");
    const guard = await (await oauth.grantGuardOf(tokens.access_token)).describe();
    expect(guard.revoked).toBe(true);
    expect((await call("/v2/cheeses", tokens.access_token)).status).toBe(401);
  });
});
