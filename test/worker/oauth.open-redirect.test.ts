/**
 * /oauth/authorize is no open redirect (RFC 9700 §4.11.2). Anyone can register a client whose
 * redirect URI is their own page (dynamic registration, RFC 7591); a failing authorization request
 * for it must not bounce the customer's browser there. Before the customer saw the consent page
 * and chose, every error is shown on our page: signed out, signed in, and after a sign-in that
 * continues to the request (`/login?continue=`).
 */
import { describe, expect, it } from "vitest";
import * as oauth from "./oauth-support";

const EVIL_CALLBACK = "https://evil.example/cb";

/** A client registered the way anyone can: POST /oauth/register, with the attacker's redirect URI. */
async function attackersClient(): Promise<string> {
  const res = await oauth.registerDynamically({
    client_name: "Helpful App",
    redirect_uris: [EVIL_CALLBACK],
    token_endpoint_auth_method: "none",
  });
  expect(res.status).toBe(201);
  return (await res.json<{ client_id: string }>()).client_id;
}

const FAILING_REQUESTS = [
  ["response_type=token", { response_type: "token" }],
  ["an unknown scope", { scope: "delete:everything" }],
  ["no PKCE", { code_challenge: undefined, code_challenge_method: undefined }],
] as const;

async function attackPath(extra: Record<string, string | undefined>): Promise<string> {
  const clientId = await attackersClient();
  const { challenge } = await oauth.pkcePair();
  const url = new URL(
    oauth.authorizeUrl({ ...oauth.standardParams(clientId, challenge, extra), redirect_uri: EVIL_CALLBACK }),
  );
  return url.pathname + url.search;
}

async function expectShownHere(response: Response) {
  expect(response.status).toBe(400);
  expect(response.headers.get("Location")).toBeNull();
  expect(await response.text()).toContain("you were not sent back to the application");
}

describe.each(FAILING_REQUESTS)("an authorization request with %s for the attacker's client", (_, extra) => {
  it("signed out: our error page, no redirect", async () => {
    await expectShownHere(await new oauth.Browser().get(await attackPath(extra)));
  });

  it("through /login?continue=: signing in continues to our error page, and so does a signed-in visit", async () => {
    const path = await attackPath(extra);
    const customer = await oauth.createCustomer();
    const browser = new oauth.Browser();
    const loginPage = await (await browser.get(`/login?continue=${encodeURIComponent(path)}`)).text();
    const signedIn = await browser.post("/login", {
      csrf_token: oauth.formField(loginPage, "csrf_token"),
      continue: oauth.formField(loginPage, "continue"),
      email: customer.email,
      password: customer.password,
    });
    expect([signedIn.status, signedIn.headers.get("Location")]).toEqual([303, path]);
    await expectShownHere(await browser.get(path));

    const again = await browser.get(`/login?continue=${encodeURIComponent(path)}`);
    expect([again.status, again.headers.get("Location")]).toEqual([303, path]);
    await expectShownHere(await browser.get(path));
  });
});
