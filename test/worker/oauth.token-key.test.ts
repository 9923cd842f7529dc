/**
 * OAUTH_TOKEN_KEY, the Worker secret that seals codes and tokens: without it (or malformed) every
 * OAuth path says which secret to set, with a 503 that changes nothing, never a 500; with
 * OAUTH_TOKEN_KEY_PREVIOUS, tokens sealed under the old key keep working through a rotation.
 */
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import app from "../../src/worker/index";
import { authorizedCode, authorizeUrl, ORIGIN, standardParams, type TokenBody } from "./oauth-support";
import { expectProblem } from "./support/problems";

type Secrets = { OAUTH_TOKEN_KEY?: string; OAUTH_TOKEN_KEY_PREVIOUS?: string };
const current = (env as unknown as Secrets).OAUTH_TOKEN_KEY!;
const newKey = () =>
  btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(32))))
    .replaceAll("+", "-")
    .replaceAll("/", "_")
    .replace(/=+$/, "");

async function fetchWith(secrets: Secrets, path: string, init?: RequestInit): Promise<Response> {
  const ctx = createExecutionContext();
  const response = await app.fetch(new Request(`${ORIGIN}${path}`, init), { ...env, ...secrets } as Env, ctx);
  await waitOnExecutionContext(ctx);
  return response;
}

const form = (fields: Record<string, string>): RequestInit => ({
  method: "POST",
  headers: { "Content-Type": "application/x-www-form-urlencoded" },
  body: new URLSearchParams(fields),
});
const bearer = (token: string): RequestInit => ({ headers: { Authorization: `Bearer ${token}` } });

describe("without a usable OAUTH_TOKEN_KEY", () => {
  const broken: [string, Secrets, RegExp][] = [
    ["missing", { OAUTH_TOKEN_KEY: undefined }, /OAUTH_TOKEN_KEY secret is missing/],
    ["16 bytes", { OAUTH_TOKEN_KEY: current.slice(0, 22) }, /OAUTH_TOKEN_KEY is not 32 bytes/],
  ];

  it.each(broken)(
    "%s: the token endpoint answers 503 temporarily_unavailable naming the secret, and the code is not used up",
    async (_name, secrets, says) => {
      const { exchange } = await authorizedCode();
      const refused = await fetchWith(secrets, "/oauth/token", form(exchange));
      expect(refused.status).toBe(503);
      expect(refused.headers.get("Cache-Control")).toBe("no-store");
      const body = await refused.json<TokenBody>();
      expect(body.error).toBe("temporarily_unavailable");
      expect(body.error_description).toMatch(says);
      expect((await fetchWith({}, "/oauth/token", form(exchange))).status).toBe(200);
    },
  );

  it("the authorize page, the API and the revocation endpoint answer 503 naming OAUTH_TOKEN_KEY", async () => {
    const { clientId, challenge, exchange } = await authorizedCode();
    const tokens = await (await fetchWith({}, "/oauth/token", form(exchange))).json<TokenBody>();
    const missing = { OAUTH_TOKEN_KEY: undefined };

    const authorize = new URL(authorizeUrl(standardParams(clientId, challenge)));
    const page = await fetchWith(missing, authorize.pathname + authorize.search);
    expect(page.status).toBe(503);
    expect(await page.text()).toContain("OAUTH_TOKEN_KEY");

    const api = await expectProblem(
      await fetchWith(missing, "/v2/cheeses", bearer(tokens.access_token)),
      503,
      "oauth_not_configured",
    );
    expect(api.detail).toContain("OAUTH_TOKEN_KEY");

    const revoked = await fetchWith(
      missing,
      "/oauth/revoke",
      form({ token: tokens.access_token, client_id: clientId }),
    );
    expect(revoked.status).toBe(503);
    expect((await revoked.json<TokenBody>()).error_description).toContain("OAUTH_TOKEN_KEY");
    expect((await fetchWith({}, "/v2/cheeses", bearer(tokens.access_token))).status).toBe(200);
  });
});

describe("rotating OAUTH_TOKEN_KEY", () => {
  it("keeps tokens of the previous key working while it is OAUTH_TOKEN_KEY_PREVIOUS, and only then", async () => {
    const { clientId, exchange } = await authorizedCode();
    const old = await (await fetchWith({}, "/oauth/token", form(exchange))).json<TokenBody>();
    const next = newKey();
    const rotating = { OAUTH_TOKEN_KEY: next, OAUTH_TOKEN_KEY_PREVIOUS: current };

    expect((await fetchWith(rotating, "/v2/cheeses", bearer(old.access_token))).status).toBe(200);
    const refreshed = await fetchWith(
      rotating,
      "/oauth/token",
      form({ grant_type: "refresh_token", refresh_token: old.refresh_token, client_id: clientId }),
    );
    expect(refreshed.status).toBe(200);
    const sealedByNext = await refreshed.json<TokenBody>();

    expect((await fetchWith(rotating, "/v2/cheeses", bearer(old.access_token))).status).toBe(200);

    const rotated = { OAUTH_TOKEN_KEY: next };
    expect((await fetchWith(rotated, "/v2/cheeses", bearer(sealedByNext.access_token))).status).toBe(200);
    expect((await fetchWith(rotated, "/v2/cheeses", bearer(old.access_token))).status).toBe(401);
  });
});
