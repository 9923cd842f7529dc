/**
 * The OAuth demo app of `npm start` (src/node/oauth/demo.ts) and the operator's answers to the admin
 * request it makes (`npm run operator -- admin-requests | approve-admin | reject-admin |
 * withdraw-admin`, in process), against a real `wrangler dev`: the demo client registered as npm
 * start registers it, the customer made with the operator CLI, the sign-in and consent forms driven
 * over HTTP. test/e2e/start.test.ts runs the demo through npm start as a whole, and
 * test/e2e/oauth-demo.browser.test.ts shows its page in a browser.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectDefined } from "../../src/common/expect";
import { openDeploymentStorage } from "../../src/node/local/deployment-storage";
import { freePort, startWranglerDev, type DevServer } from "../../src/node/local/wrangler-dev";
import {
  DEMO_CLIENT_NAME,
  demoRedirectUri,
  seedDemoClient,
  startOAuthDemo,
  type OAuthDemo,
} from "../../src/node/oauth/demo";
import { localOperator } from "../../src/node/operator/local-operator";
import { operator } from "../../src/node/operator/operator-command";
import { signInAndAllow } from "../e2e/oauth-fixture";
import { runInProcess } from "./cli-in-process";

const customer = { email: "demo-app@example.test", password: "long enough password" };
let dir: string;
let server: DevServer;
let demo: OAuthDemo;
let clientId: string;
let accountId: string;
const logged: string[] = [];

/** `npm run operator -- … --url <the server>`, in process; it must succeed. */
async function operatorOk(...args: string[]): Promise<string> {
  const run = await runInProcess(operator.run, [...args, "--url", server.url]);
  expect(run.code, run.stderr).toBe(0);
  return run.stdout;
}

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "oauth-demo-"));
  const callbackPort = await freePort();
  // As npm start does: the demo client in the state first, then the server over it.
  const opened = await openDeploymentStorage({ persistTo: dir });
  try {
    clientId = await seedDemoClient(opened.env, demoRedirectUri(callbackPort));
  } finally {
    await opened.dispose();
  }
  server = await startWranglerDev({ persistTo: dir, envFile: localOperator().envFile });
  const created = await operatorOk(
    "accounts",
    "create",
    "--email",
    customer.email,
    "--password",
    customer.password,
    "--json",
  );
  accountId = (JSON.parse(created) as { id: string }).id;
  demo = await startOAuthDemo({
    baseUrl: server.url,
    clientId,
    port: callbackPort,
    accountId,
    keysCliFlags: ` --url=${server.url}`,
    log: (text) => logged.push(text),
  });
}, 180_000);

afterAll(async () => {
  await demo?.stop();
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const callback = (params: Record<string, string>) => fetch(`${demo.redirectUri}?${new URLSearchParams(params)}`);
const demoState = () => expectDefined(new URL(demo.authorizeUrl).searchParams.get("state"), "the demo's state");
const lastLog = () => logged.at(-1) ?? "";
/** What the demo printed after its last successful exchange: the calls to try. */
const signedInLog = () => logged.findLast((text) => text.includes("exchanged the code")) ?? "";

/** The refresh token the demo app holds now: the one it printed, then each refresh's new one. */
let refreshToken = "";
const printedRefreshToken = () =>
  expectDefined(/refresh_token=(\S+)/.exec(signedInLog())?.[1], "the refresh token the demo printed");

/** The customer signs in and allows the demo app; the page the app answers the browser with. */
async function signInThroughTheDemo(): Promise<Response> {
  const page = await fetch(await signInAndAllow(demo.authorizeUrl, customer, DEMO_CLIENT_NAME));
  refreshToken = printedRefreshToken();
  return page;
}

/** A refresh as the demo's printed command makes it (its URL and client_id): the response. */
function refresh(): Promise<Response> {
  const [, url = ""] = expectDefined(
    /curl -s (\S+) -d grant_type=refresh_token -d client_id=(\S+)/.exec(signedInLog()),
    "the refresh command the demo printed",
  );
  return fetch(url, {
    method: "POST",
    body: new URLSearchParams({ grant_type: "refresh_token", client_id: clientId, refresh_token: refreshToken }),
  });
}

/** A refresh that must succeed: the new token's scopes. */
async function refreshedScopes(): Promise<string[]> {
  const response = await refresh();
  expect(response.status, await response.clone().text()).toBe(200);
  const tokens = (await response.json()) as { scope: string; refresh_token: string };
  refreshToken = tokens.refresh_token;
  return tokens.scope.split(" ").sort();
}

describe("the demo app's callback", () => {
  it("answers only /callback, and refuses another issuer and an error sent back, saying why", async () => {
    expect((await fetch(new URL("/elsewhere", demo.redirectUri))).status).toBe(404);

    const issuer = await callback({ code: "oac_abc", state: demoState(), iss: "https://elsewhere.example" });
    expect([issuer.status, issuer.headers.get("cache-control")]).toEqual([400, "no-store"]);
    expect(issuer.headers.get("content-security-policy")).toContain("default-src 'none'");
    expect(await issuer.text()).toContain("Unexpected issuer https://elsewhere.example: ignored.");

    const denied = await callback({
      error: "access_denied",
      error_description: "the customer said no",
      state: demoState(),
      iss: new URL(server.url).origin,
    });
    expect(denied.status).toBe(400);
    expect(await denied.text()).toContain("The authorization ended with access_denied: the customer said no");
    expect(lastLog()).toContain("[oauth demo] The authorization ended with access_denied");
  });

  it("exchanges the code with its PKCE verifier once; admin waits, with the approval command printed", {
    timeout: 60_000,
  }, async () => {
    const landed = await signInAndAllow(demo.authorizeUrl, customer, DEMO_CLIENT_NAME);
    const page = await fetch(landed);
    refreshToken = printedRefreshToken();
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(`Signed in: ${DEMO_CLIENT_NAME} now holds an access token for read:catalog.`);
    expect(lastLog()).toContain(
      `its token has: read:catalog (admin waits for an operator). Try:\n  curl -s ${server.url}/v1/catalog -H 'Authorization: Bearer `,
    );
    expect(lastLog()).toContain(
      `npm run operator -- approve-admin --account=${accountId} --client=${clientId} --url=${server.url}   # or Approve at ${server.url}/dashboard/operator`,
    );
    expect(await refreshedScopes()).toEqual(["read:catalog"]);

    // The same code a second time: the server refuses it, and the page says so; and the grant the
    // code gave ends with it (RFC 6749 §4.1.2), so the refresh token the demo holds is refused too.
    const replayed = await fetch(landed);
    expect(replayed.status).toBe(400);
    expect(await replayed.text()).toContain("The code exchange failed: invalid_grant");
    expect((await refresh()).status).toBe(400);
  });
});

describe("the operator's answer to the demo app's admin request", () => {
  it("admin-requests lists it; the printed approve-admin approves it: the next sign-in and refresh carry admin", {
    timeout: 60_000,
  }, async () => {
    const table = await operatorOk("admin-requests");
    expect(table).toMatch(/^ACCOUNT\s+EMAIL\s+APP\s+CLIENT\s+DEPLOYMENT\s+REQUESTED$/m);
    expect(table).toMatch(
      new RegExp(
        `^${accountId}\\s+${customer.email}\\s+${DEMO_CLIENT_NAME}\\s+${clientId}\\s+production\\s+\\d{4}-`,
        "m",
      ),
    );
    const listed = JSON.parse(await operatorOk("admin-requests", "--account", accountId, "--json")) as unknown[];
    expect(listed).toEqual([
      expect.objectContaining({ account_id: accountId, client_id: clientId, deployment: "production" }),
    ]);

    const printed = expectDefined(
      /npm run operator -- (approve-admin \S+ \S+ \S+)/.exec(signedInLog())?.[1],
      "the command",
    );
    const approved = await runInProcess(operator.run, printed.split(" "));
    expect([approved.code, approved.stdout]).toEqual([
      0,
      `admin approved for ${DEMO_CLIENT_NAME} (client ${clientId}, production) acting for ${accountId}: its next token (a refresh or a new sign-in) carries admin\n`,
    ]);
    expect((await signInThroughTheDemo()).status).toBe(200);
    expect(signedInLog()).toMatch(/its token has: (read:catalog admin|admin read:catalog)\. Try:/);
    expect(signedInLog()).not.toContain("approve-admin");
    expect(await refreshedScopes()).toEqual(["admin", "read:catalog"]);
    expect((await operatorOk("admin-requests")).trim()).toBe("no admin requests are waiting");

    const again = await runInProcess(operator.run, printed.split(" "));
    expect([again.code, again.stderr]).toEqual([
      1,
      expect.stringMatching(/^operator: refused \(409 admin_request_decided\)/),
    ]);
  });

  it("withdraw-admin --client ends the app's grants holding admin; a second time finds nothing (exit 1)", {
    timeout: 60_000,
  }, async () => {
    const withdrawn = await operatorOk("withdraw-admin", "--account", accountId, "--client", clientId, "--json");
    expect(JSON.parse(withdrawn)).toEqual({
      account_id: accountId,
      withdrawn: [expect.objectContaining({ client_id: clientId, deployment: "production", grants_ended: 1 })],
    });
    expect((await refresh()).status).toBe(400);

    const again = await runInProcess(operator.run, [
      "withdraw-admin",
      "--account",
      accountId,
      "--client",
      clientId,
      "--url",
      server.url,
    ]);
    expect([again.code, again.stderr]).toEqual([
      1,
      expect.stringMatching(/^operator: refused \(404 admin_request_not_found\)/),
    ]);
  });

  it("reject-admin without --client refuses every waiting request of the account, then finds none", {
    timeout: 60_000,
  }, async () => {
    expect((await signInThroughTheDemo()).status).toBe(200);
    expect(await operatorOk("reject-admin", "--account", accountId)).toBe(
      `admin rejected for ${DEMO_CLIENT_NAME} (client ${clientId}, production) acting for ${accountId}: tokens keep leaving admin out (the customer may ask again)\n`,
    );
    expect(await refreshedScopes()).toEqual(["read:catalog"]);
    expect(await operatorOk("reject-admin", "--account", accountId)).toBe(
      `no admin requests of ${accountId} are waiting; nothing changed\n`,
    );
    expect(JSON.parse(await operatorOk("reject-admin", "--account", accountId, "--json"))).toEqual({
      account_id: accountId,
      rejected: [],
    });
  });

  it("approve-admin and withdraw-admin without --client: the account's clearance and every app's request", {
    timeout: 60_000,
  }, async () => {
    expect((await signInThroughTheDemo()).status).toBe(200);
    expect(JSON.parse(await operatorOk("approve-admin", "--account", accountId, "--json"))).toEqual({
      account_id: accountId,
      admin_approved: true,
      deployments: ["production"],
      approved: [expect.objectContaining({ client_id: clientId, status: "approved", deployment: "production" })],
    });
    expect(await refreshedScopes()).toEqual(["admin", "read:catalog"]);
    expect(await operatorOk("approve-admin", "--account", accountId)).toBe(
      [
        `admin approved for ${accountId} on production`,
        "  API keys:   the account may now create keys with the admin scope",
        "  OAuth apps: none waiting (a later request waits again: run this again, or use --client)",
        "",
      ].join("\n"),
    );
    expect(await operatorOk("withdraw-admin", "--account", accountId)).toBe(
      [
        `admin withdrawn for ${accountId} on production`,
        "  API keys:   the account may no longer create keys with the admin scope; it had no active admin key",
        `  OAuth apps: ${DEMO_CLIENT_NAME} (client ${clientId}, production): 1 grant ended; their tokens stop at the next request`,
        "",
      ].join("\n"),
    );
    expect(JSON.parse(await operatorOk("withdraw-admin", "--account", accountId, "--json"))).toEqual({
      account_id: accountId,
      admin_approved: false,
      deployments: [{ deployment: "production", revoked: [] }],
      withdrawn: [],
    });
  });
});
