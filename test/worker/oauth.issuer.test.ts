/**
 * The issuer, the token audience, the metadata, the redirect's `iss` and /openapi.json's `servers`
 * come from the deployment's configured PUBLIC_ORIGINS (here https://api.test, vitest.config.ts),
 * never from the Host a client sends; loopback origins (wrangler dev) are served as themselves.
 */
import { createExecutionContext } from "cloudflare:test";
import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { expectDefined } from "../../src/common/expect";
import app from "../../src/worker/index";
import * as oauth from "./oauth-support";
import { expectProblem } from "./support/problems";

const METADATA = "/.well-known/oauth-authorization-server";
const metadataAt = async (origin: string) =>
  (await exports.default.fetch(`${origin}${METADATA}`)).json<Record<string, string>>();
const serversAt = async (origin: string) =>
  (await (await exports.default.fetch(`${origin}/openapi.json`)).json<{ servers: { url: string }[] }>()).servers;

describe("a request for a host this deployment is not configured for", () => {
  const hosts = [
    "https://evil.example",
    "http://evil.example",
    "http://api.test",
    "https://api.test:8443",
    "http://localhost.evil.example:8787",
  ];
  const paths = [METADATA, "/oauth/authorize?client_id=x", "/openapi.json", "/v1/catalog", "/login"];

  it.each(hosts)("%s: 400 unknown_host problem on every route, never a 500", async (host) => {
    for (const path of paths) {
      const problem = await expectProblem(await exports.default.fetch(`${host}${path}`), 400, "unknown_host");
      expect(problem.detail).toContain(oauth.ORIGIN);
    }
  });

  it("changes no state: a code sent to the token endpoint at another host is still redeemable here", async () => {
    const { exchange: fields } = await oauth.authorizedCode();
    const elsewhere = await exports.default.fetch("https://evil.example/oauth/token", {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(fields),
    });
    await expectProblem(elsewhere, 400, "unknown_host");
    const here = await oauth.tokenRequest(fields);
    expect(here.status).toBe(200);
    expect((await here.json<oauth.TokenBody>()).access_token).toMatch(/^oat_/);
  });
});

describe("the configured origin", () => {
  it("is the issuer (RFC 8414), every endpoint's origin, and the one server of /openapi.json", async () => {
    const metadata = await metadataAt(oauth.ORIGIN);
    expect(metadata.issuer).toBe(oauth.ORIGIN);
    for (const endpoint of ["authorization_endpoint", "token_endpoint", "revocation_endpoint"])
      expect(new URL(expectDefined(metadata[endpoint], endpoint)).origin).toBe(oauth.ORIGIN);
    expect(await serversAt(oauth.ORIGIN)).toEqual([{ url: oauth.ORIGIN }]);
  });

  it("is the iss of the authorization response (RFC 9207) and the resource (audience) of the tokens", async () => {
    const { exchange } = await oauth.authorizedCode();
    const body = await (await oauth.tokenRequest(exchange)).json<oauth.TokenBody & { resource?: string }>();
    expect(body.resource).toBe(oauth.ORIGIN);
    // The one error redirected to the client, the customer's own Deny, carries it too (RFC 9207 §2).
    const { browser, consent } = await oauth.openConsent();
    const denied = await oauth.decide(browser, consent, "deny");
    expect(denied.searchParams.get("iss")).toBe(oauth.ORIGIN);
  });
});

describe("loopback origins (wrangler dev, npm start)", () => {
  it.each(["http://localhost:8787", "http://127.0.0.1:9999", "http://[::1]:8788", "http://localhost"])(
    "%s is served as its own issuer",
    async (origin) => {
      expect((await metadataAt(origin)).issuer).toBe(origin);
      expect(await serversAt(origin)).toEqual([{ url: origin }]);
    },
  );

  it("are the only origins served when PUBLIC_ORIGINS is not set", async () => {
    const unconfigured = { ...env, PUBLIC_ORIGINS: undefined } as unknown as Env;
    const refused = await app.fetch(
      new Request(`${oauth.ORIGIN}/openapi.json`),
      unconfigured,
      createExecutionContext(),
    );
    expect((await expectProblem(refused, 400, "unknown_host")).detail).toContain("PUBLIC_ORIGINS");
    const local = await app.fetch(
      new Request("http://localhost:8787/openapi.json"),
      unconfigured,
      createExecutionContext(),
    );
    expect(local.status).toBe(200);
  });
});
