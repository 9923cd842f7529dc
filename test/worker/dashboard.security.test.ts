/**
 * The dashboard's security properties: CSRF (token + Origin) on every post, one account cannot
 * touch another's keys or apps, only operators see and decide admin requests, a key's secret is
 * in no response but the one that created it, and pages are sent with strict headers.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { expectDefined } from "../../src/common/expect";
import { accountObject } from "../../src/worker/auth/accounts";
import { readAdminRequest } from "../../src/worker/auth/oauth/admin-request-record";
import { newAccount, newKey } from "./auth-fixtures";
import * as dashboard from "./dashboard-support";
import { bearerGet, consentedTokens, createCustomer } from "./oauth-support";

async function keyCount(accountId: string): Promise<number> {
  const listed = await accountObject(env, accountId).listKeys();
  if (!listed.ok) throw new Error(listed.detail);
  return listed.value.length;
}

async function keyStatus(accountId: string, keyId: string) {
  const listed = await accountObject(env, accountId).listKeys();
  return listed.ok ? listed.value.find((key) => key.id === keyId)?.status : undefined;
}

describe("CSRF: every post needs this origin and the session's token", () => {
  const refusals = [
    { name: "no token", token: () => undefined, origin: undefined, says: "security token is missing or out of date" },
    {
      name: "a wrong token",
      token: () => "A".repeat(43),
      origin: undefined,
      says: "security token is missing or out of date",
    },
    {
      name: "a foreign Origin",
      token: (html: string) => dashboard.csrfOf(html),
      origin: "https://evil.example",
      says: "posted from another site",
    },
    {
      name: "no Origin",
      token: (html: string) => dashboard.csrfOf(html),
      origin: null,
      says: "carried no Origin header",
    },
  ] as const;

  for (const refusal of refusals) {
    it(`refuses Generate with ${refusal.name}: 403 and no key`, async () => {
      const account = await newAccount();
      const client = await dashboard.signIn(account);
      const html = await dashboard.keysPage(client);
      const token = refusal.token(html);
      const fields = {
        form_id: dashboard.formIdOf(html),
        mode: "live",
        access: "all",
        ...(token ? { csrf_token: token } : {}),
      };
      const response = await client.post("/dashboard/keys", fields, { origin: refusal.origin });
      expect(response.status).toBe(403);
      expect(dashboard.visibleText(await response.text())).toContain(refusal.says);
      expect(await keyCount(account.accountId)).toBe(0);
    });

    it(`refuses Revoke with ${refusal.name}: 403 and the key stays active`, async () => {
      const account = await newAccount();
      const { key, secret } = await newKey(account.accountId);
      const client = await dashboard.signIn(account);
      const html = await (await client.get(`/dashboard/keys/${key.id}/revoke`)).text();
      const token = refusal.token(html);
      const response = await client.post(`/dashboard/keys/${key.id}/revoke`, token ? { csrf_token: token } : {}, {
        origin: refusal.origin,
      });
      expect(response.status).toBe(403);
      expect(await keyStatus(account.accountId, key.id)).toBe("active");
      expect((await bearerGet("/v2/cheeses", secret)).status).toBe(200);
    });
  }

  it("refuses an operator decision from a foreign Origin: the request stays pending", async () => {
    const customer = await dashboard.accountWaitingForAdmin("client-csrf", "CSRF App");
    const operator = await dashboard.signIn(await newAccount({ operator: true }));
    const html = await (await operator.get("/dashboard/operator")).text();
    const fields = { csrf_token: dashboard.csrfOf(html), account_id: customer.accountId, client_id: "client-csrf" };
    expect(
      (await operator.post("/dashboard/operator/admin-requests/approve", fields, { origin: "https://evil.example" }))
        .status,
    ).toBe(403);
    expect(
      (await operator.post("/dashboard/operator/admin-requests/approve", { ...fields, csrf_token: "" })).status,
    ).toBe(403);
    expect((await readAdminRequest(env.OAUTH_KV, customer.accountId, "client-csrf"))?.status).toBe("pending");
  });

  it("refuses a post without a signed-in session, and the sign-in form carries a token", async () => {
    const client = new dashboard.DashboardClient();
    const gate = await client.get("/dashboard/keys");
    const html = await gate.text();
    const response = await client.post("/dashboard/keys", { csrf_token: dashboard.csrfOf(html), mode: "live" });
    expect(response.status).toBe(403);
    expect(dashboard.visibleText(await response.text())).toContain(
      "You are not signed in (your session may have ended), so nothing was changed.",
    );
  });
});

describe("one account cannot reach another's keys or apps", () => {
  it("cannot see, confirm or revoke another account's key", async () => {
    const owner = await newAccount();
    const { key, secret } = await newKey(owner.accountId, { name: "Owner's key" });
    const intruder = await dashboard.signIn(await newAccount());
    const list = await dashboard.keysPage(intruder);
    expect(list).not.toContain(key.id);
    expect(dashboard.visibleText(list)).not.toContain("Owner's key");
    expect((await intruder.get(`/dashboard/keys/${key.id}/revoke`)).status).toBe(404);
    const response = await intruder.post(`/dashboard/keys/${key.id}/revoke`, { csrf_token: dashboard.csrfOf(list) });
    expect(response.status).toBe(404);
    expect(await keyStatus(owner.accountId, key.id)).toBe("active");
    expect((await bearerGet("/v2/cheeses", secret)).status).toBe(200);
  });

  it("cannot revoke another account's authorized app", async () => {
    const owner = await createCustomer();
    const { tokens } = await consentedTokens({ account: owner, scope: "read:cheeses", clientName: "Owner's App" });
    const ownerPage = await (await dashboard.signIn(owner).then((c) => c.get("/dashboard/apps"))).text();
    const grantPath = dashboard.captureIn(
      ownerPage,
      /href="(\/dashboard\/apps\/[A-Za-z0-9_-]+\/revoke)"/,
      "revoke link",
    );

    const intruder = await dashboard.signIn(await newAccount());
    const apps = await (await intruder.get("/dashboard/apps")).text();
    expect(dashboard.visibleText(apps)).not.toContain("Owner's App");
    expect((await intruder.get(grantPath)).status).toBe(404);
    expect((await intruder.post(grantPath, { csrf_token: dashboard.csrfOf(apps) })).status).toBe(404);
    expect((await bearerGet("/v2/cheeses", tokens.access_token)).status).toBe(200);
  });
});

describe("operator pages are for operators only", () => {
  it("shows a customer 403 without the pending requests, and refuses their decisions", async () => {
    const waiting = await dashboard.accountWaitingForAdmin("client-op", "Op App");
    const customer = await dashboard.signIn(await newAccount());
    const keys = await dashboard.keysPage(customer);
    expect(keys).not.toContain('href="/dashboard/operator"');
    const page = await customer.get("/dashboard/operator");
    expect(page.status).toBe(403);
    const text = dashboard.visibleText(await page.text());
    expect(text).toContain("This page is for operators of the service.");
    expect(text).not.toContain(waiting.email);
    expect(text).not.toContain("Op App");
    for (const decision of ["approve", "reject"]) {
      const response = await customer.post(`/dashboard/operator/admin-requests/${decision}`, {
        csrf_token: dashboard.csrfOf(keys),
        account_id: waiting.accountId,
        client_id: "client-op",
      });
      expect(response.status).toBe(403);
    }
    expect((await readAdminRequest(env.OAUTH_KV, waiting.accountId, "client-op"))?.status).toBe("pending");
    const adminKeys = await customer.post(`/dashboard/operator/accounts/${waiting.accountId}/admin-keys`, {
      csrf_token: dashboard.csrfOf(keys),
    });
    expect(adminKeys.status).toBe(403);
    const account = await accountObject(env, waiting.accountId).account();
    expect(account.ok && account.value.admin_approved).toBe(false);
  });
});

describe("a key's secret is shown once", () => {
  it("appears only in the Generate response: not in a redirect, a later page, or any other dashboard page", async () => {
    const account = await newAccount();
    const client = await dashboard.signIn(account);
    const created = await dashboard.generate(client, { name: "once" });
    expect(created.headers.get("Location")).toBeNull();
    expect(created.headers.get("Cache-Control")).toBe("no-store");
    const secret = dashboard.secretIn(await created.text());
    const listed = await accountObject(env, account.accountId).listKeys();
    const keyId = listed.ok ? expectDefined(listed.value[0], "the generated key").id : "";
    for (const path of [
      "/dashboard/keys",
      "/dashboard",
      "/dashboard/apps",
      `/dashboard/keys/${keyId}/revoke`,
      `/dashboard/keys?revoked=${keyId}`,
    ]) {
      const response = await client.get(path);
      const body = await response.text();
      expect(body, path).not.toContain(secret);
      expect(body, path).not.toContain(secret.slice(8, 30));
    }
  });
});

describe("cookies, headers and escaping", () => {
  it("keeps the session in a __Host- cookie that is HttpOnly, Secure and SameSite", async () => {
    const client = await dashboard.signIn(await newAccount());
    const signedIn = client.setCookieLines.at(-1);
    expect(signedIn).toMatch(/^__Host-session=[A-Za-z0-9_-]{43};/);
    expect(signedIn).toMatch(/; HttpOnly/i);
    expect(signedIn).toMatch(/; Secure/i);
    expect(signedIn).toMatch(/; SameSite=Lax/i);
    expect(signedIn).toMatch(/; Path=\//i);
  });

  it("sends pages with a CSP that allows only our own script and forbids framing, and no-store", async () => {
    const client = await dashboard.signIn(await newAccount());
    const page = await client.get("/dashboard/keys");
    const csp = page.headers.get("Content-Security-Policy") ?? "";
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain("unsafe-inline");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(page.headers.get("X-Frame-Options")).toBe("DENY");
    expect(page.headers.get("Cache-Control")).toBe("no-store");
    expect(await page.text()).not.toMatch(/<script>/);
  });

  it("renders a key name with markup as text", async () => {
    const client = await dashboard.signIn(await newAccount());
    const created = await dashboard.generate(client, { name: `<script>alert("x")</script>` });
    expect(created.status).toBe(200);
    const html = await dashboard.keysPage(client);
    expect(html).not.toContain(`<script>alert("x")</script>`);
    expect(html).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;");
  });

  it("does not echo query text into the confirmation messages", async () => {
    const client = await dashboard.signIn(await newAccount());
    const apps = await client.get(`/dashboard/apps?revoked_client=${encodeURIComponent("Call +1 555 0100 now")}`);
    expect(await apps.text()).not.toContain("Call +1 555 0100 now");
    const keys = await client.get(`/dashboard/keys?revoked=${encodeURIComponent("Your account is locked")}`);
    expect(await keys.text()).not.toContain("Your account is locked");
  });
});

describe("over-long and multi-byte identifiers never reach storage (no 500)", () => {
  // KV keys are at most 512 bytes of UTF-8: 200 × "€" is 200 characters but 600 bytes.
  const VALUES = ["a".repeat(600), "€".repeat(200), "🧀".repeat(130), "é".repeat(257)];

  it("the apps page's revoked_client, an app or key to revoke", async () => {
    const customer = await dashboard.signIn(await newAccount());
    for (const value of VALUES) {
      const apps = await customer.get(`/dashboard/apps?${new URLSearchParams({ revoked_client: value })}`);
      expect(apps.status).toBe(200);
      for (const path of [
        `/dashboard/apps/${encodeURIComponent(value)}/revoke`,
        `/dashboard/keys/${encodeURIComponent(value)}/revoke`,
      ])
        expect((await customer.get(path)).status).toBe(404);
    }
  });

  it("the operator's decisions and their confirmation: refused, nothing changed", async () => {
    const customer = await newAccount();
    const operator = await dashboard.signIn(await newAccount({ operator: true }));
    const html = await (await operator.get("/dashboard/operator")).text();
    for (const value of VALUES) {
      const fields = { csrf_token: dashboard.csrfOf(html), account_id: customer.accountId, client_id: value };
      const confirm = await operator.get(
        `/dashboard/operator/admin-requests/approve?${new URLSearchParams({ account_id: customer.accountId, client_id: value })}`,
      );
      expect(confirm.status).toBe(404);
      for (const decision of ["approve", "reject", "withdraw"]) {
        const res = await operator.post(`/dashboard/operator/admin-requests/${decision}`, fields);
        expect(res.status, `${decision} ${value.slice(0, 3)}`).toBe(400);
      }
    }
  });
});
