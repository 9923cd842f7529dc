/**
 * /mcp as an OAuth protected resource: the 401 that starts discovery, the RFC 9728 document,
 * audience-bound tokens (RFC 8707), and dynamic client registration (RFC 7591) with its bounds.
 */
import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { expectDefined } from "../../src/common/expect";
import { INITIALIZE, MCP_HEADERS } from "./support/mcp";
import { bearer, freshIp, newAccount, newKey } from "./auth-fixtures";
import { consentedTokens, ORIGIN, REDIRECT_URI, type TokenBody } from "./oauth-support";
import {
  DEPLOYMENT_REGISTRATIONS_SUBJECT,
  REGISTRATIONS_PER_ADDRESS,
} from "../../src/worker/auth/oauth/registration-endpoint";

function mcp(headers: Record<string, string>, body = INITIALIZE) {
  return exports.default.fetch(
    new Request(`${ORIGIN}/mcp`, {
      method: "POST",
      headers: { ...MCP_HEADERS, ...headers },
      body,
    }),
  );
}

function register(metadata: Record<string, unknown>, ip = freshIp()) {
  return exports.default.fetch(
    new Request(`${ORIGIN}/oauth/register`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "CF-Connecting-IP": ip },
      body: JSON.stringify(metadata),
    }),
  );
}

const PUBLIC_CLIENT = { client_name: "Agent Host", redirect_uris: [REDIRECT_URI], token_endpoint_auth_method: "none" };

/** A customer's token for `resource` (omitted: the default, the origin). */
async function tokenFor(resource?: string): Promise<string> {
  const { tokens } = await consentedTokens({ scope: "read:catalog", resource });
  expect((tokens as TokenBody & { resource: string }).resource).toBe(resource ?? ORIGIN);
  return tokens.access_token;
}

describe("/mcp: authorization", () => {
  it("answers 401 without a credential, naming the protected resource metadata", async () => {
    const res = await mcp({});
    expect(res.status).toBe(401);
    expect(res.headers.get("WWW-Authenticate")).toBe(
      `Bearer realm="readiness-catalog-production", resource_metadata="${ORIGIN}/.well-known/oauth-protected-resource"`,
    );
    const bad = await mcp({ ...bearer("sk_live_nope"), "CF-Connecting-IP": freshIp() });
    expect(bad.status).toBe(401);
    expect(bad.headers.get("WWW-Authenticate")).toContain('error="invalid_token"');
    expect(bad.headers.get("WWW-Authenticate")).toContain("resource_metadata=");
  });

  it("refuses a page of another origin (DNS rebinding), before reading the credential", async () => {
    const res = await mcp({ Origin: "https://evil.example" });
    expect(res.status).toBe(403);
    expect((await res.json<{ code: string }>()).code).toBe("forbidden");
    const forged = await exports.default.fetch(
      new Request("https://evil.example/mcp", { method: "POST", headers: MCP_HEADERS, body: INITIALIZE }),
    );
    expect(forged.status).toBe(400);
    expect((await forged.json<{ code: string }>()).code).toBe("unknown_host");
  });

  it("serves RFC 9728 metadata naming this origin as the authorization server", async () => {
    for (const path of ["/.well-known/oauth-protected-resource", "/.well-known/oauth-protected-resource/mcp"]) {
      const res = await exports.default.fetch(new Request(`${ORIGIN}${path}`));
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({
        resource: `${ORIGIN}/mcp`,
        authorization_servers: [ORIGIN],
        scopes_supported: ["read:catalog"],
        bearer_methods_supported: ["header"],
      });
    }
    const as = await (
      await exports.default.fetch(new Request(`${ORIGIN}/.well-known/oauth-authorization-server`))
    ).json<Record<string, unknown>>();
    expect(as.registration_endpoint).toBe(`${ORIGIN}/oauth/register`);
  });

  it("accepts an API key with read:catalog, refuses one without (403)", async () => {
    const account = await newAccount();
    const key = await newKey(account.accountId, { scopes: ["read:catalog"] });
    expect((await mcp(bearer(key.secret))).status).toBe(200);
    const other = await newKey(account.accountId, { scopes: ["read:cheeses"] });
    const res = await mcp(bearer(other.secret));
    expect(res.status).toBe(403);
    expect(res.headers.get("WWW-Authenticate")).toContain('error="insufficient_scope"');
  });

  it("binds tokens to their resource: an /mcp token works only on /mcp, an API token only on the API", async () => {
    const mcpToken = await tokenFor(`${ORIGIN}/mcp`);
    expect((await mcp(bearer(mcpToken))).status).toBe(200);
    const onApi = await exports.default.fetch(
      new Request(`${ORIGIN}/v1/releases/current`, { headers: bearer(mcpToken) }),
    );
    expect(onApi.status).toBe(401);

    const apiToken = await tokenFor();
    const onMcp = await mcp({ ...bearer(apiToken), "CF-Connecting-IP": freshIp() });
    expect(onMcp.status).toBe(401);
    expect(onMcp.headers.get("WWW-Authenticate")).toContain('error="invalid_token"');
  });
});

describe("/oauth/register: dynamic client registration", () => {
  it("registers a public client with loopback or https redirect URIs", async () => {
    const res = await register({ ...PUBLIC_CLIENT, redirect_uris: ["http://127.0.0.1:33418/callback", REDIRECT_URI] });
    expect(res.status).toBe(201);
    const body = await res.json<Record<string, unknown>>();
    expect(body.token_endpoint_auth_method).toBe("none");
    expect(body.client_secret).toBeUndefined();
    // Stored to expire unless used: the library renews a registration only on token requests.
    const stored = await env.OAUTH_KV.get<{ registrationExpiresAt: number }>(`client:${body.client_id}`, "json");
    const week = 7 * 24 * 3600;
    const expiresIn = expectDefined(stored, "the stored client").registrationExpiresAt - Math.floor(Date.now() / 1000);
    expect(expiresIn).toBeGreaterThan(week - 60);
    expect(expiresIn).toBeLessThanOrEqual(week);
  });

  it("refuses confidential clients and unsafe redirect URIs, storing nothing", async () => {
    const cases = [
      { ...PUBLIC_CLIENT, token_endpoint_auth_method: "client_secret_basic" },
      { ...PUBLIC_CLIENT, redirect_uris: ["http://evil.example/callback"] },
      { ...PUBLIC_CLIENT, redirect_uris: ["javascript:alert(1)"] },
      { ...PUBLIC_CLIENT, redirect_uris: [] },
    ];
    const before = (await env.OAUTH_KV.list({ prefix: "client:" })).keys.length;
    for (const metadata of cases) {
      const res = await register(metadata);
      expect(res.status, JSON.stringify(metadata)).toBe(400);
      expect((await res.json<{ error: string }>()).error).toBe("invalid_client_metadata");
    }
    expect((await env.OAUTH_KV.list({ prefix: "client:" })).keys.length).toBe(before);
  });

  // Our check (redirect-uri.ts) runs before the library's, so each refusal names the rule broken.
  it.each([
    ["a relative URI", ["/callback"], /^redirect_uris\[0\]: the redirect URI is not an absolute URL$/],
    ["a fragment", ["https://app.example/callback#x"], /^redirect_uris\[0\]: .*must not contain a fragment/],
    ["user credentials", ["https://user:pass@app.example/callback"], /must not contain user credentials$/],
    ["a data: URI", ["data:text/html,hi"], /^redirect_uris\[0\]: the data: scheme is not allowed/],
    ["plain http off loopback", ["http://app.example/cb"], /plain http is only allowed on a loopback host/],
    ["a number", [42], /^redirect_uris\[0\]: a redirect URI must be a string$/],
    ["a space", ["https://app.example/call back"], /^redirect_uris\[0\]: the redirect URI contains spaces/],
    ["11 URIs", Array.from({ length: 11 }, (_, i) => `https://app.example/cb${i}`), /^at most 10 redirect_uris$/],
  ])("refuses %s in redirect_uris with invalid_client_metadata, storing nothing", async (_, uris, reason) => {
    const before = (await env.OAUTH_KV.list({ prefix: "client:" })).keys.length;
    const res = await register({ ...PUBLIC_CLIENT, redirect_uris: uris });
    expect(res.status).toBe(400);
    const body = await res.json<{ error: string; error_description: string }>();
    expect(body.error).toBe("invalid_client_metadata");
    expect(body.error_description).toMatch(reason);
    expect((await env.OAUTH_KV.list({ prefix: "client:" })).keys.length).toBe(before);
  });

  it("names every problem of the metadata in one refusal", async () => {
    const res = await register({
      ...PUBLIC_CLIENT,
      token_endpoint_auth_method: "client_secret_basic",
      redirect_uris: ["https://app.example/cb", "/relative", "https://app.example/cb#x"],
    });
    expect(res.status).toBe(400);
    const { error_description: description } = await res.json<{ error_description: string }>();
    expect(description.split("; ")).toEqual([
      expect.stringMatching(/^token_endpoint_auth_method must be "none"/),
      "redirect_uris[1]: the redirect URI is not an absolute URL",
      "redirect_uris[2]: a redirect URI must not contain a fragment (RFC 6749 §3.1.2)",
    ]);
  });

  it("limits registrations per address (429 with Retry-After), then stores nothing", async () => {
    const ip = freshIp();
    for (let i = 0; i < REGISTRATIONS_PER_ADDRESS.burst; i++)
      expect((await register(PUBLIC_CLIENT, ip)).status).toBe(201);
    const before = (await env.OAUTH_KV.list({ prefix: "client:" })).keys.length;
    const refused = await register(PUBLIC_CLIENT, ip);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect((await env.OAUTH_KV.list({ prefix: "client:" })).keys.length).toBe(before);
    // Another address is not held to this one's budget.
    expect((await register(PUBLIC_CLIENT)).status).toBe(201);
  });

  it("caps registrations per deployment", async () => {
    const guard = env.SUBJECT_GUARDS.getByName(DEPLOYMENT_REGISTRATIONS_SUBJECT);
    await guard.setPolicyOverride({ rate: 0.0001, burst: 1 });
    try {
      await register(PUBLIC_CLIENT);
      const refused = await register(PUBLIC_CLIENT);
      expect(refused.status).toBe(429);
      expect((await refused.json<{ error_description: string }>()).error_description).toContain("this deployment");
    } finally {
      await guard.setPolicyOverride(null);
    }
  });
});
