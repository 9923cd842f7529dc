/**
 * OAuth `admin` requests through the operator API (what `npm run operator -- admin-requests`,
 * `approve-admin --client` and `reject-admin` call): a customer asks for admin, the token comes
 * without it, an operator lists and approves the request, and the grant's next token carries it.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { expectDefined } from "../../src/common/expect";
import { authorizedApps, revokeAuthorizedApp } from "../../src/worker/dashboard/authorized-apps";
import { bearer, call } from "./auth-fixtures";
import * as oauth from "./oauth-support";

const SECRET = "operator-secret-for-tests-0123456789abcdef";
const withSecret = { ...env, OPERATOR_SECRET: SECRET } as unknown as Env;
const op = (path: string, method = "GET", secret = SECRET) =>
  call(`/operator/v1${path}`, { method, headers: bearer(secret) }, withSecret);

interface AdminRequest {
  account_id: string;
  account_email: string | null;
  client_id: string;
  client_name: string;
  status: string;
  requested_at: string;
  approved_by?: string;
}

/** A customer who consented to `admin` for a fresh app: the tokens (without admin) and the pair. */
async function adminAsked(appName = "Cheese Admin Console") {
  const account = await oauth.createCustomer();
  const { clientId } = await oauth.registerClient({ name: appName });
  const tokens = await askForAdmin(account, clientId);
  expect(tokens.scope).toBe("read:cheeses");
  return { account, clientId, tokens };
}

/** A new grant of the app asking for `admin` (code exchanged with PKCE): the tokens. */
async function askForAdmin(account: Awaited<ReturnType<typeof oauth.createCustomer>>, clientId: string) {
  const { verifier, challenge } = await oauth.pkcePair();
  const code = await oauth.authorizationCode({ clientId, challenge, account, scope: "read:cheeses admin" });
  const exchanged = await oauth.tokenRequest(oauth.codeExchange(clientId, code, verifier));
  return exchanged.json<oauth.TokenBody>();
}

const refresh = async (clientId: string, refreshToken: string) =>
  (await oauth.refreshRequest(clientId, refreshToken)).json<oauth.TokenBody>();

async function pendingOf(accountId: string): Promise<AdminRequest[]> {
  const res = await op(`/admin-requests?account_id=${accountId}`);
  expect(res.status).toBe(200);
  return (await res.json<{ data: AdminRequest[] }>()).data;
}

describe("GET /operator/v1/admin-requests", () => {
  it("lists the pending request with the account's email and the app's name", async () => {
    const { account, clientId } = await adminAsked();
    expect(await pendingOf(account.id)).toEqual([
      expect.objectContaining({
        account_id: account.id,
        account_email: account.email,
        client_id: clientId,
        client_name: "Cheese Admin Console",
        status: "pending",
      }),
    ]);
    const everyone = (await (await op("/admin-requests")).json<{ data: AdminRequest[] }>()).data;
    expect(everyone.map((request) => request.account_id)).toContain(account.id);
  });

  it("refuses a malformed account_id filter (400) and a caller without the operator secret (401)", async () => {
    expect((await op("/admin-requests?account_id=bob")).status).toBe(400);
    expect((await op("/admin-requests", "GET", "operator-secret-for-tests-0123456789abcdeX")).status).toBe(401);
  });
});

describe("deciding a request", () => {
  it("approval: the next refresh carries admin, and the request leaves the pending list", async () => {
    const { account, clientId, tokens } = await adminAsked();
    const approved = await op(`/accounts/${account.id}/admin-requests/${clientId}/approval`, "POST");
    expect(approved.status).toBe(200);
    expect(await approved.json()).toMatchObject({ status: "approved", approved_by: "operator API" });
    expect(await pendingOf(account.id)).toEqual([]);

    const refreshed = await refresh(clientId, tokens.refresh_token);
    expect(refreshed.scope.split(" ").sort()).toEqual(["admin", "read:cheeses"]);

    const again = await op(`/accounts/${account.id}/admin-requests/${clientId}/approval`, "POST");
    expect(again.status).toBe(409);
    expect(await again.json()).toMatchObject({ code: "admin_request_decided" });
  });

  it("rejection: the request is gone and tokens keep leaving admin out", async () => {
    const { account, clientId, tokens } = await adminAsked();
    const rejected = await op(`/accounts/${account.id}/admin-requests/${clientId}/rejection`, "POST");
    expect(rejected.status).toBe(200);
    expect(await pendingOf(account.id)).toEqual([]);
    expect((await refresh(clientId, tokens.refresh_token)).scope).toBe("read:cheeses");

    const approveGone = await op(`/accounts/${account.id}/admin-requests/${clientId}/approval`, "POST");
    expect(approveGone.status).toBe(404);
    expect(await approveGone.json()).toMatchObject({ code: "admin_request_not_found" });
  });

  it("an approval for one app grants nothing to another app of the same account", async () => {
    const first = await adminAsked();
    const { clientId: otherApp } = await oauth.registerClient({ name: "Other App" });
    expect((await op(`/accounts/${first.account.id}/admin-requests/${otherApp}/approval`, "POST")).status).toBe(404);
    expect((await refresh(first.clientId, first.tokens.refresh_token)).scope).toBe("read:cheeses");
  });

  it("refuses a malformed client id (400) without touching anything", async () => {
    const { account } = await adminAsked();
    expect((await op(`/accounts/${account.id}/admin-requests/not%20a%20client/approval`, "POST")).status).toBe(400);
    expect(await pendingOf(account.id)).toHaveLength(1);
  });
});

/** A customer whose app holds an approved `admin`, with a token that carries it. */
async function adminCleared() {
  const asked = await adminAsked();
  expect((await op(`/accounts/${asked.account.id}/admin-requests/${asked.clientId}/approval`, "POST")).status).toBe(
    200,
  );
  const tokens = await refresh(asked.clientId, asked.tokens.refresh_token);
  expect(tokens.scope.split(" ")).toContain("admin");
  return { ...asked, tokens };
}

/** Any API request with an OAuth access token (no route accepts a token for admin work alone). */
const adminCall = (accessToken: string) => call("/v2/cheeses", { headers: bearer(accessToken) });

describe("withdrawing an approval (POST …/admin-requests/{client_id}/withdrawal)", () => {
  it("ends the grants that hold admin: their tokens fail at the next request, and a new grant needs a new approval", async () => {
    const { account, clientId, tokens } = await adminCleared();
    expect((await adminCall(tokens.access_token)).status).toBe(200);

    const withdrawn = await op(`/accounts/${account.id}/admin-requests/${clientId}/withdrawal`, "POST");
    expect(withdrawn.status).toBe(200);
    const body = await withdrawn.json<{ request: AdminRequest; revoked_grants: string[] }>();
    expect(body.request).toMatchObject({ account_id: account.id, client_id: clientId, status: "approved" });
    expect(body.revoked_grants).toHaveLength(1);

    expect((await adminCall(tokens.access_token)).status).toBe(401);
    const refreshed = await oauth.refreshRequest(clientId, tokens.refresh_token);
    expect(refreshed.status).toBe(400);

    const again = await askForAdmin(account, clientId);
    expect(again.scope).toBe("read:cheeses");
    expect(await pendingOf(account.id)).toEqual([expect.objectContaining({ client_id: clientId, status: "pending" })]);
  });

  it("refuses what is not approved: nothing asked (404), a request still waiting (409), a malformed id (400)", async () => {
    const { account, clientId } = await adminAsked();
    const pending = await op(`/accounts/${account.id}/admin-requests/${clientId}/withdrawal`, "POST");
    expect(pending.status).toBe(409);
    expect(await pending.json()).toMatchObject({ code: "admin_request_pending" });
    expect(await pendingOf(account.id)).toHaveLength(1);

    const { clientId: otherApp } = await oauth.registerClient({ name: "Other App" });
    const none = await op(`/accounts/${account.id}/admin-requests/${otherApp}/withdrawal`, "POST");
    expect(none.status).toBe(404);
    expect(await none.json()).toMatchObject({ code: "admin_request_not_found" });
    expect((await op(`/accounts/${account.id}/admin-requests/a%20b/withdrawal`, "POST")).status).toBe(400);
  });
});

describe("ending a grant drops its admin request", () => {
  it("the customer revoking the app: a new grant of it is pending again", async () => {
    const { account, clientId } = await adminCleared();
    const [app] = await authorizedApps(env, oauth.ORIGIN, account.id);
    const { grantId } = expectDefined(app, "the app the customer authorized");
    expect(await revokeAuthorizedApp(env, oauth.ORIGIN, account.id, grantId)).toBe(true);
    expect((await askForAdmin(account, clientId)).scope).toBe("read:cheeses");
    expect(await pendingOf(account.id)).toEqual([expect.objectContaining({ client_id: clientId, status: "pending" })]);
  });

  it("the app revoking its refresh token at /oauth/revoke: a new grant of it is pending again", async () => {
    const { account, clientId, tokens } = await adminCleared();
    const revoked = await call("/oauth/revoke", {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ token: tokens.refresh_token, client_id: clientId }),
    });
    expect(revoked.status).toBe(200);
    expect((await askForAdmin(account, clientId)).scope).toBe("read:cheeses");
  });
});
