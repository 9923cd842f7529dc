/**
 * The one admin request path for OAuth, from the operator's terminal: a customer consents to
 * `admin` for an app, the token comes without it; `npm run operator -- admin-requests` shows the
 * request (account, email, app); `approve-admin` approves it and the app's next refresh and next
 * authorization carry `admin`; `reject-admin` refuses one, and tokens keep leaving it out.
 * Real `wrangler dev`, the real CLIs, the HTML forms driven over HTTP.
 */
import { createHash, randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signInAndAllow, startOAuthDeployment, type OAuthDeployment } from "./oauth-fixture";
import { runScript } from "./support/scripts";
import { expectDefined } from "../../src/common/expect";

let deployment: OAuthDeployment;
let where: string[];

beforeAll(async () => {
  deployment = await startOAuthDeployment();
  where = ["--url", deployment.server.url];
});

afterAll(async () => {
  await deployment?.stop();
});

const keys = (...args: string[]) => runScript("operator.ts", [...args, ...where]);

interface Tokens {
  access_token: string;
  refresh_token: string;
  scope: string;
  error?: string;
}

async function tokenRequest(fields: Record<string, string>): Promise<Tokens> {
  const response = await fetch(new URL("/oauth/token", deployment.server.url), {
    method: "POST",
    body: new URLSearchParams(fields),
  });
  return (await response.json()) as Tokens;
}

/** Authorize (PKCE S256) → sign in → allow → exchange the code: the app's tokens. */
async function authorizeApp(scope: string, account = deployment.account): Promise<Tokens> {
  const verifier = randomBytes(32).toString("base64url");
  const url = new URL("/oauth/authorize", deployment.server.url);
  url.search = new URLSearchParams({
    response_type: "code",
    client_id: deployment.clientId,
    redirect_uri: deployment.callback.redirectUri,
    scope,
    state: randomBytes(8).toString("hex"),
    code_challenge: createHash("sha256").update(verifier).digest("base64url"),
    code_challenge_method: "S256",
  }).toString();
  const landed = await signInAndAllow(url.toString(), account);
  const code = landed.searchParams.get("code");
  expect(code, landed.toString()).toBeTruthy();
  return tokenRequest({
    grant_type: "authorization_code",
    code: expectDefined(code, "the authorization code"),
    redirect_uri: deployment.callback.redirectUri,
    client_id: deployment.clientId,
    code_verifier: verifier,
  });
}

const refresh = (tokens: Tokens) =>
  tokenRequest({ grant_type: "refresh_token", refresh_token: tokens.refresh_token, client_id: deployment.clientId });
const scopesOf = (tokens: Tokens) => tokens.scope.split(" ").sort();

/** A new customer account made with npm run operator: its sign-in and id. */
async function newCustomer(prefix: string, password: string) {
  const customer = { email: `${prefix}-${Date.now()}@example.com`, password };
  const created = await keys("accounts", "create", "--email", customer.email, "--password", password, "--json");
  expect(created.code, created.stderr).toBe(0);
  return { customer, accountId: (JSON.parse(created.stdout) as { id: string }).id };
}

async function accountIdOf(email: string): Promise<string> {
  const listed = await keys("accounts", "list", "--json");
  expect(listed.code, listed.stderr).toBe(0);
  const account = (JSON.parse(listed.stdout) as { id: string; email: string }[]).find(
    (entry) => entry.email === email.toLowerCase(),
  );
  return expectDefined(account, `the account ${email} in ${listed.stdout}`).id;
}

describe("OAuth admin requests through npm run operator", () => {
  it("admin-requests lists the request; approve-admin --account approves it; the next refresh and authorization carry admin", async () => {
    const accountId = await accountIdOf(deployment.account.email);
    const first = await authorizeApp("read:cheeses admin");
    expect(first.scope).toBe("read:cheeses");

    const waiting = await keys("admin-requests");
    expect(waiting.code, waiting.stderr).toBe(0);
    expect(waiting.stdout).toMatch(
      new RegExp(
        `${accountId}\\s+${deployment.account.email}\\s+E2E Cheese App\\s+${deployment.clientId}\\s+production`,
      ),
    );

    const approved = await keys("approve-admin", "--account", accountId);
    expect(approved.code, approved.stderr).toBe(0);
    expect(approved.stdout).toContain(`admin approved for ${accountId} on production`);
    expect(approved.stdout).toContain(`OAuth apps: E2E Cheese App (client ${deployment.clientId}, production)`);

    expect(scopesOf(await refresh(first))).toEqual(["admin", "read:cheeses"]);
    expect(scopesOf(await authorizeApp("read:cheeses admin"))).toEqual(["admin", "read:cheeses"]);
    expect((await keys("admin-requests", "--account", accountId)).stdout.trim()).toBe("no admin requests are waiting");
  });

  it("reject-admin --client refuses one request; approving it afterwards finds nothing (exit 1)", async () => {
    const { customer, accountId } = await newCustomer("e2e-reject", "another correct horse battery");

    const tokens = await authorizeApp("read:cheeses admin", customer);
    const rejected = await keys("reject-admin", "--account", accountId, "--client", deployment.clientId);
    expect(rejected.code, rejected.stderr).toBe(0);
    expect(rejected.stdout).toContain("admin rejected for E2E Cheese App");
    expect((await refresh(tokens)).scope).toBe("read:cheeses");

    const late = await keys("approve-admin", "--account", accountId, "--client", deployment.clientId);
    expect(late.code).toBe(1);
    expect(late.stderr).toMatch(/refused \(404 admin_request_not_found\)/);
  });

  it("withdraw-admin --client takes an approval back: the token with admin is refused at its next request", async () => {
    const { customer, accountId } = await newCustomer("e2e-withdraw", "yet another correct horse");
    await authorizeApp("read:cheeses admin", customer);
    expect((await keys("approve-admin", "--account", accountId, "--client", deployment.clientId)).code).toBe(0);
    const withAdmin = await authorizeApp("read:cheeses admin", customer);
    expect(scopesOf(withAdmin)).toEqual(["admin", "read:cheeses"]);
    const cheeses = () =>
      fetch(new URL("/v2/cheeses", deployment.server.url), {
        headers: { Authorization: `Bearer ${withAdmin.access_token}` },
      });
    expect((await cheeses()).status).toBe(200);

    const withdrawn = await keys("withdraw-admin", "--account", accountId, "--client", deployment.clientId);
    expect(withdrawn.code, withdrawn.stderr).toBe(0);
    expect(withdrawn.stdout).toContain(
      `admin withdrawn for ${accountId}: E2E Cheese App (client ${deployment.clientId}`,
    );
    expect((await cheeses()).status).toBe(401);
    expect((await authorizeApp("read:cheeses admin", customer)).scope).toBe("read:cheeses");

    const twice = await keys("withdraw-admin", "--account", accountId, "--client", deployment.clientId);
    expect(twice.code).toBe(1);
    expect(twice.stderr).toMatch(/refused \(409 admin_request_pending\)/);
  });
});
