/**
 * The operator page's approvals: each one is confirmed on a page of its own before anything
 * changes (as revoking a key is), and the account-wide approval for admin keys can be withdrawn,
 * which revokes the account's active admin keys at once.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { accountObject } from "../../src/worker/auth/accounts";
import { readAdminRequest } from "../../src/worker/auth/oauth/admin-request-record";
import { approveAdminRequest } from "../../src/worker/auth/oauth/admin-requests";
import { newAccount, newKey } from "./auth-fixtures";
import { accountWaitingForAdmin, csrfOf, keysPage, signIn, visibleText } from "./dashboard-support";
import { bearerGet, registerClient } from "./oauth-support";

const adminCleared = async (accountId: string) => {
  const account = await accountObject(env, accountId).account();
  return account.ok && account.value.admin_approved;
};

describe("approving is confirmed first", () => {
  it("an admin request: the operator page links to a confirmation; only its form approves", async () => {
    const customer = await accountWaitingForAdmin("client-confirm", "Confirm App");
    const operator = await signIn(await newAccount({ operator: true }));
    const page = await (await operator.get("/dashboard/operator")).text();
    const confirmHref = `/dashboard/operator/admin-requests/approve?account_id=${customer.accountId}&amp;client_id=client-confirm`;
    expect(page).toContain(`href="${confirmHref}"`);

    const confirm = await operator.get(confirmHref.replaceAll("&amp;", "&"));
    expect(confirm.status).toBe(200);
    const html = await confirm.text();
    expect(visibleText(html)).toContain(`Approve admin for Confirm App acting for ${customer.email}?`);
    expect(visibleText(html)).toContain("You can withdraw it later on the operator page");
    expect((await readAdminRequest(env.OAUTH_KV, customer.accountId, "client-confirm"))?.status).toBe("pending");

    const approved = await operator.post("/dashboard/operator/admin-requests/approve", {
      csrf_token: csrfOf(html),
      account_id: customer.accountId,
      client_id: "client-confirm",
    });
    expect(approved.status).toBe(303);
    expect((await readAdminRequest(env.OAUTH_KV, customer.accountId, "client-confirm"))?.status).toBe("approved");
  });

  it("a request that is not waiting gets a 404 page instead of a confirmation", async () => {
    const customer = await newAccount();
    const operator = await signIn(await newAccount({ operator: true }));
    const confirm = await operator.get(
      `/dashboard/operator/admin-requests/approve?account_id=${customer.accountId}&client_id=nobody`,
    );
    expect(confirm.status).toBe(404);
    expect(visibleText(await confirm.text())).toContain("There is no admin request waiting for that account and app");
  });

  it("admin keys: the confirmation says what approving allows; nothing changes until its form is sent", async () => {
    const customer = await newAccount();
    const operator = await signIn(await newAccount({ operator: true }));
    const page = await (await operator.get("/dashboard/operator")).text();
    expect(page).toContain(`href="/dashboard/operator/accounts/${customer.accountId}/admin-keys"`);
    const confirm = await operator.get(`/dashboard/operator/accounts/${customer.accountId}/admin-keys`);
    expect(confirm.status).toBe(200);
    const html = await confirm.text();
    expect(visibleText(html)).toContain(`Let ${customer.email} create admin keys?`);
    expect(visibleText(html)).toContain("You can withdraw the approval later on the operator page");
    expect(await adminCleared(customer.accountId)).toBe(false);
    expect(
      (
        await operator.post(`/dashboard/operator/accounts/${customer.accountId}/admin-keys`, {
          csrf_token: csrfOf(html),
        })
      ).status,
    ).toBe(303);
    expect(await adminCleared(customer.accountId)).toBe(true);
  });
});

describe("withdrawing the admin-keys approval", () => {
  it("after a confirmation naming the keys it ends, admin keys are revoked and no new one can be made", async () => {
    const customer = await newAccount();
    const approved = await accountObject(env, customer.accountId).approveAdmin();
    expect(approved.ok).toBe(true);
    const adminKey = await newKey(customer.accountId, { scopes: ["read:cheeses", "admin"], name: "Ops" });
    const plainKey = await newKey(customer.accountId, { scopes: ["read:cheeses"] });

    const operator = await signIn(await newAccount({ operator: true }));
    const page = await (await operator.get("/dashboard/operator")).text();
    const withdrawPath = `/dashboard/operator/accounts/${customer.accountId}/admin-keys/withdraw`;
    expect(page).toContain(`href="${withdrawPath}"`);
    const confirm = await operator.get(withdrawPath);
    expect(confirm.status).toBe(200);
    const html = await confirm.text();
    const text = visibleText(html);
    expect(text).toContain(`Withdraw admin keys from ${customer.email}?`);
    expect(text).toContain(`“Ops” (sk_live_…${adminKey.secret.slice(-4)})`);
    expect(text).not.toContain(plainKey.secret.slice(-4));
    expect(await adminCleared(customer.accountId)).toBe(true);

    const withdrawn = await operator.post(withdrawPath, { csrf_token: csrfOf(html) });
    expect(withdrawn.status).toBe(303);
    const after = visibleText(await (await operator.follow(withdrawn)).text());
    expect(after).toContain(
      `Withdrawn: ${customer.email} may no longer create API keys with the admin scope; 1 admin key was revoked.`,
    );
    expect(await adminCleared(customer.accountId)).toBe(false);
    expect((await bearerGet("/v2/cheeses", adminKey.secret)).status).toBe(401);
    expect((await bearerGet("/v2/cheeses", plainKey.secret)).status).toBe(200);
    expect(await keysPage(await signIn(customer))).not.toContain('value="admin"');
  });

  it("is for operators only, and needs the session's token", async () => {
    const customer = await newAccount();
    await accountObject(env, customer.accountId).approveAdmin();
    const withdrawPath = `/dashboard/operator/accounts/${customer.accountId}/admin-keys/withdraw`;
    const other = await signIn(await newAccount());
    const keys = await keysPage(other);
    expect((await other.get(withdrawPath)).status).toBe(403);
    expect((await other.post(withdrawPath, { csrf_token: csrfOf(keys) })).status).toBe(403);
    const operator = await signIn(await newAccount({ operator: true }));
    const html = await (await operator.get(withdrawPath)).text();
    expect(
      (await operator.post(withdrawPath, { csrf_token: csrfOf(html) }, { origin: "https://evil.example" })).status,
    ).toBe(403);
    expect(await adminCleared(customer.accountId)).toBe(true);
  });
});

describe("withdrawing an OAuth app's approved admin request", () => {
  const approvedApp = async (clientId: string) => {
    const customer = await accountWaitingForAdmin(clientId, "Withdraw App");
    const target = { accountId: customer.accountId, clientId };
    expect((await approveAdminRequest(env.OAUTH_KV, target, "ops@example.com", new Date())).ok).toBe(true);
    return customer;
  };
  const WITHDRAW = "/dashboard/operator/admin-requests/withdraw";

  it("the operator page lists approved apps with a Withdraw form; sending it deletes the approval", async () => {
    const customer = await approvedApp("client-withdraw");
    const operator = await signIn(await newAccount({ operator: true }));
    const html = await (await operator.get("/dashboard/operator")).text();
    expect(visibleText(html)).toContain("Approved admin access");
    expect(html).toContain(`action="${WITHDRAW}"`);
    const withdrawn = await operator.post(WITHDRAW, {
      csrf_token: csrfOf(html),
      account_id: customer.accountId,
      client_id: "client-withdraw",
    });
    expect(withdrawn.status).toBe(303);
    expect(await readAdminRequest(env.OAUTH_KV, customer.accountId, "client-withdraw")).toBeNull();
    const again = await operator.post(WITHDRAW, {
      csrf_token: csrfOf(html),
      account_id: customer.accountId,
      client_id: "client-withdraw",
    });
    expect(again.status).toBe(404);
  });

  it("then says on the operator page which app lost admin for which account", async () => {
    const { clientId } = await registerClient({ name: "Ledger Sync" });
    const customer = await approvedApp(clientId);
    const operator = await signIn(await newAccount({ operator: true }));
    const html = await (await operator.get("/dashboard/operator")).text();
    const fields = { csrf_token: csrfOf(html), account_id: customer.accountId, client_id: clientId };
    const withdrawn = await operator.post(WITHDRAW, fields);
    expect(withdrawn.status).toBe(303);
    const after = visibleText(await (await operator.follow(withdrawn)).text());
    expect(after).toContain(`Withdrawn: Ledger Sync no longer has admin for ${customer.email}`);
    expect(after).toContain(`${customer.email} must authorize it again`);
  });

  it("is for operators only, and needs the session's token and our origin", async () => {
    const customer = await approvedApp("client-keep");
    const fields = { account_id: customer.accountId, client_id: "client-keep" };
    const other = await signIn(await newAccount());
    expect((await other.post(WITHDRAW, { csrf_token: csrfOf(await keysPage(other)), ...fields })).status).toBe(403);
    const operator = await signIn(await newAccount({ operator: true }));
    const html = await (await operator.get("/dashboard/operator")).text();
    expect((await operator.post(WITHDRAW, { csrf_token: "forged", ...fields })).status).toBe(403);
    expect(
      (await operator.post(WITHDRAW, { csrf_token: csrfOf(html), ...fields }, { origin: "https://evil.example" }))
        .status,
    ).toBe(403);
    expect((await readAdminRequest(env.OAUTH_KV, customer.accountId, "client-keep"))?.status).toBe("approved");
  });
});
