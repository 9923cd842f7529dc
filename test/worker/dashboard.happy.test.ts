/**
 * The dashboard, as an account owner and an operator use it: sign in with the shared session,
 * generate keys (shown once), use and revoke them, manage authorized apps, decide admin requests.
 */
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { readAdminRequest } from "../../src/worker/auth/oauth/admin-request-record";
import { approveAdminRequest } from "../../src/worker/auth/oauth/admin-requests";
import { newAccount } from "./auth-fixtures";
import * as dashboard from "./dashboard-support";
import { bearerGet, consentedTokens, createCustomer, refreshRequest, type TokenBody } from "./oauth-support";
import { publish, testRelease } from "./support/releases";

beforeAll(async () => {
  await publish(testRelease("base"));
});

describe("sign in and out", () => {
  it("shows the shared sign-in form at /dashboard, continues to the keys page, and signs out", async () => {
    const account = await newAccount();
    const client = await dashboard.signIn(account);
    const home = await client.get("/dashboard");
    expect(home.status).toBe(303);
    expect(home.headers.get("Location")).toBe("/dashboard/keys");
    const html = await dashboard.keysPage(client);
    expect(dashboard.visibleText(html)).toContain(account.email);
    expect(dashboard.visibleText(html)).toContain("0 of 3 active");
    expect(dashboard.visibleText(html)).toContain("You have no API keys yet");

    const out = await client.post("/logout", { csrf_token: dashboard.csrfOf(html), continue: "/dashboard" });
    expect(out.status).toBe(303);
    expect(out.headers.get("Location")).toBe("/dashboard");
    const after = await client.get("/dashboard/keys");
    expect(after.status).toBe(200);
    expect(dashboard.visibleText(await after.text())).toContain("Sign in to continue to your dashboard");
  });
});

describe("where a sign-in lands", () => {
  it("an operator lands on the operator page, a customer on the keys page", async () => {
    const operator = await dashboard.signIn(await newAccount({ operator: true }));
    const home = await operator.get("/dashboard");
    expect(home.status).toBe(303);
    expect(home.headers.get("Location")).toBe("/dashboard/operator");
    const customer = await dashboard.signIn(await newAccount());
    expect((await customer.get("/dashboard/")).headers.get("Location")).toBe("/dashboard/keys");
  });
});

describe("keys", () => {
  it("generates a live key, shows its secret once, and the key reads /v1/catalog", async () => {
    const client = await dashboard.signIn(await newAccount());
    const created = await dashboard.generate(client, { name: "Billing service" });
    expect(created.status).toBe(200);
    expect(created.headers.get("Cache-Control")).toBe("no-store");
    const html = await created.text();
    const secret = dashboard.secretIn(html);
    expect(secret.startsWith("sk_live_")).toBe(true);
    const text = dashboard.visibleText(html);
    expect(text).toContain("Copy it now: this is the only time it is shown.");
    expect(html).toContain('data-copy-target="new-key-secret"');

    expect((await bearerGet("/v1/catalog", secret)).status).toBe(200);

    const list = dashboard.visibleText(await dashboard.keysPage(client));
    expect(list).toContain("Billing service");
    expect(list).toContain(`sk_live_…${secret.slice(-4)}`);
    expect(list).toContain("All scopes except admin");
    expect(list).toContain("1 of 3 active");
    expect(list).not.toContain(secret);
  });

  it("generates a restricted key that carries only the ticked scopes", async () => {
    const client = await dashboard.signIn(await newAccount());
    const created = await dashboard.generate(client, { access: "restricted", scopes: ["read:catalog"] });
    expect(created.status).toBe(200);
    const secret = dashboard.secretIn(await created.text());
    expect((await bearerGet("/v1/catalog", secret)).status).toBe(200);
    expect((await bearerGet("/v2/cheeses", secret)).status).toBe(403);
    expect(dashboard.visibleText(await dashboard.keysPage(client))).toContain("read:catalog");
  });

  it("shows when a key was last used", async () => {
    const client = await dashboard.signIn(await newAccount());
    const secret = dashboard.secretIn(await (await dashboard.generate(client)).text());
    expect(dashboard.cellText(await dashboard.keysPage(client), "Last used")).toBe("Never");
    expect((await bearerGet("/v1/catalog", secret)).status).toBe(200);
    expect(dashboard.cellText(await dashboard.keysPage(client), "Last used")).toMatch(
      /^\d{1,2} \w{3} \d{4}, \d{2}:\d{2} UTC$/,
    );
  });

  it("revokes a key after a confirmation page; the key then fails with 401", async () => {
    const client = await dashboard.signIn(await newAccount());
    const secret = dashboard.secretIn(await (await dashboard.generate(client, { name: "Old deploy" })).text());
    const list = await dashboard.keysPage(client);
    const confirmHref = dashboard.captureIn(
      list,
      /href="(\/dashboard\/keys\/key_live_[0-9A-Za-z]{20}\/revoke)"/,
      "revoke link",
    );

    const confirm = await client.get(confirmHref);
    expect(confirm.status).toBe(200);
    const confirmHtml = await confirm.text();
    expect(dashboard.visibleText(confirmHtml)).toContain(`Revoke key “Old deploy” (sk_live_…${secret.slice(-4)})?`);
    expect((await bearerGet("/v1/catalog", secret)).status).toBe(200);

    const revoked = await client.post(confirmHref, { csrf_token: dashboard.csrfOf(confirmHtml) });
    expect(revoked.status).toBe(303);
    expect(revoked.headers.get("Location")).toMatch(/^\/dashboard\/keys\?revoked=key_live_/);
    const after = await client.follow(revoked);
    const text = dashboard.visibleText(await after.text());
    expect(text).toContain(
      `Key “Old deploy” (sk_live_…${secret.slice(-4)}) is revoked. Requests with it now fail with 401.`,
    );
    expect(text).toContain("0 of 3 active");
    expect((await bearerGet("/v1/catalog", secret)).status).toBe(401);
  });

  it("rotates: a new key works alongside the old one until the old one is revoked", async () => {
    const client = await dashboard.signIn(await newAccount());
    const oldKey = dashboard.secretIn(await (await dashboard.generate(client, { name: "v1" })).text());
    const newKey = dashboard.secretIn(await (await dashboard.generate(client, { name: "v2" })).text());
    expect((await bearerGet("/v1/catalog", oldKey)).status).toBe(200);
    expect((await bearerGet("/v1/catalog", newKey)).status).toBe(200);
    const list = await dashboard.keysPage(client);
    const oldRevoke = dashboard.captureIn(
      list,
      /href="(\/dashboard\/keys\/[^"]+\/revoke)"[^>]*>Revoke<span class="visually-hidden"> key “v1”/,
      "revoke link of v1",
    );
    const confirm = await (await client.get(oldRevoke)).text();
    expect((await client.post(oldRevoke, { csrf_token: dashboard.csrfOf(confirm) })).status).toBe(303);
    expect((await bearerGet("/v1/catalog", oldKey)).status).toBe(401);
    expect((await bearerGet("/v1/catalog", newKey)).status).toBe(200);
  });

  it("shows the rotation recipe of the spec beside the Generate form", async () => {
    const client = await dashboard.signIn(await newAccount());
    const text = dashboard.visibleText(await dashboard.keysPage(client));
    expect(text).toContain("Rotating a key");
    expect(text).toMatch(
      /Generate a new key on this page\. Deploy the new key .* Both keys work in the meantime\. Revoke the old key\./,
    );
  });
});

const grantFor = (account: { email: string; password: string }, scope: string, clientName = "Cheese Tracker") =>
  consentedTokens({ account, scope, clientName });

describe("authorized apps", () => {
  it("lists the account's OAuth grants and revokes one at once", async () => {
    const customer = await createCustomer();
    const { clientId, tokens } = await grantFor(customer, "read:cheeses read:orders", "Cheese Tracker");
    expect((await bearerGet("/v2/cheeses", tokens.access_token)).status).toBe(200);

    const client = await dashboard.signIn(customer);
    const apps = await client.get("/dashboard/apps");
    expect(apps.status).toBe(200);
    const html = await apps.text();
    const text = dashboard.visibleText(html);
    expect(text).toContain("Cheese Tracker");
    expect(text).toContain("Browse the cheese catalog read:cheeses");
    expect(text).toContain("See your cheese orders: items, totals, status and shipping address read:orders");
    expect(text).toMatch(/Authorized \d{1,2} \w{3} \d{4}, \d{2}:\d{2} UTC/);

    const confirmHref = dashboard.captureIn(html, /href="(\/dashboard\/apps\/[A-Za-z0-9_-]+\/revoke)"/, "revoke link");
    const confirm = await client.get(confirmHref);
    const confirmHtml = await confirm.text();
    expect(dashboard.visibleText(confirmHtml)).toContain("Revoke access of Cheese Tracker?");
    const revoked = await client.post(confirmHref, { csrf_token: dashboard.csrfOf(confirmHtml) });
    expect(revoked.status).toBe(303);
    expect(revoked.headers.get("Location")).toBe(`/dashboard/apps?revoked_client=${encodeURIComponent(clientId)}`);

    expect((await bearerGet("/v2/cheeses", tokens.access_token)).status).toBe(401);
    const refresh = await refreshRequest(clientId, tokens.refresh_token);
    expect(refresh.status).toBe(400);
    const after = dashboard.visibleText(await (await client.follow(revoked)).text());
    expect(after).toContain("Cheese Tracker no longer has access to your account.");
    expect(after).toContain("No application has access to your account.");
  });
});

describe("authorized apps: admin waiting for approval", () => {
  /** What the apps page says the app may do. */
  const mayDo = (html: string) =>
    dashboard.visibleText(dashboard.captureIn(html, /(It may:[\s\S]*?<\/ul>)/, "list of what the app may do"));

  it("lists admin as pending, not among what the app may do, until an operator approves it", async () => {
    const customer = await createCustomer();
    const { clientId } = await grantFor(customer, "read:cheeses admin", "Ops Console");
    const client = await dashboard.signIn(customer);
    const html = await (await client.get("/dashboard/apps")).text();
    const may = mayDo(html);
    expect(may).toContain("read:cheeses");
    expect(may).not.toContain("admin");
    const pending = dashboard.visibleText(
      dashboard.captureIn(html, /(Waiting for an operator[\s\S]*?<\/ul>)/, "pending list"),
    );
    expect(pending).toContain("Full access to your account");
    expect(pending).toContain("admin");

    await approveAdminRequest(env.OAUTH_KV, { accountId: customer.id, clientId }, "test", new Date());
    const approved = await (await client.get("/dashboard/apps")).text();
    expect(mayDo(approved)).toContain("admin");
    expect(approved).not.toContain("Waiting for an operator");
  });
});

/** Posts an operator's decision on a pending admin request from the operator page `html`; the text of the page it lands on. */
async function decideAdminRequest(
  operator: dashboard.DashboardClient,
  html: string,
  decision: "approve" | "reject",
  request: { accountId: string; clientId: string },
): Promise<string> {
  const decided = await operator.post(`/dashboard/operator/admin-requests/${decision}`, {
    csrf_token: dashboard.csrfOf(html),
    account_id: request.accountId,
    client_id: request.clientId,
  });
  expect(decided.status).toBe(303);
  return dashboard.visibleText(await (await operator.follow(decided)).text());
}

describe("operator", () => {
  it("approves a pending admin request; the app's next token carries admin", async () => {
    const customer = await createCustomer();
    const { clientId, tokens } = await grantFor(customer, "read:cheeses admin", "Admin Console");
    expect(tokens.scope.split(" ")).not.toContain("admin");
    expect((await readAdminRequest(env.OAUTH_KV, customer.id, clientId))?.status).toBe("pending");

    const operator = await dashboard.signIn(await newAccount({ operator: true }));
    const page = await operator.get("/dashboard/operator");
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(dashboard.visibleText(html)).toContain(`${customer.email} Admin Console ${clientId}`);
    const after = await decideAdminRequest(operator, html, "approve", { accountId: customer.id, clientId });
    expect(after).toContain(`Approved: Admin Console gets admin for ${customer.email}`);
    // It leaves the waiting list for the approved one (where it can be withdrawn).
    const [waiting, approved] = after.split("Approved admin access");
    expect(waiting).not.toContain(`${customer.email} Admin Console ${clientId}`);
    expect(approved).toContain(`${customer.email} Admin Console ${clientId}`);

    const refreshed = await refreshRequest(clientId, tokens.refresh_token);
    expect(refreshed.status).toBe(200);
    expect((await refreshed.json<TokenBody>()).scope.split(" ")).toContain("admin");
  });

  it("rejects a pending admin request: it leaves the list and tokens keep leaving admin out", async () => {
    const customer = await createCustomer();
    const { clientId, tokens } = await grantFor(customer, "read:cheeses admin", "Reporting Bot");
    const operator = await dashboard.signIn(await newAccount({ operator: true }));
    const html = await (await operator.get("/dashboard/operator")).text();
    const after = await decideAdminRequest(operator, html, "reject", { accountId: customer.id, clientId });
    expect(after).toContain(`Rejected: Reporting Bot does not get admin for ${customer.email}`);
    expect(await readAdminRequest(env.OAUTH_KV, customer.id, clientId)).toBeNull();
    const refreshed = await refreshRequest(clientId, tokens.refresh_token);
    expect((await refreshed.json<TokenBody>()).scope.split(" ")).not.toContain("admin");
  });

  it("lists the deployment's accounts with their roles", async () => {
    const customer = await newAccount();
    const operator = await dashboard.signIn(await newAccount({ operator: true }));
    const text = dashboard.visibleText(await (await operator.get("/dashboard/operator")).text());
    expect(text).toContain("Accounts");
    expect(text).toContain(`${customer.email} Test `);
    expect(text).toMatch(new RegExp(`customer Approve admin keys for ${customer.email.replace(".", "\\.")}`));
    expect(text).toMatch(/operator/);
  });

  it("lets an account create admin keys once an operator approved it", async () => {
    const customer = await newAccount();
    const owner = await dashboard.signIn(customer);
    expect(await dashboard.keysPage(owner)).not.toContain('value="admin"');

    const operator = await dashboard.signIn(await newAccount({ operator: true }));
    const html = await (await operator.get("/dashboard/operator")).text();
    const approved = await operator.post(`/dashboard/operator/accounts/${customer.accountId}/admin-keys`, {
      csrf_token: dashboard.csrfOf(html),
    });
    expect(approved.status).toBe(303);
    const after = dashboard.visibleText(await (await operator.follow(approved)).text());
    expect(after).toContain(`Approved: ${customer.email} may now create API keys with the admin scope.`);

    expect(await dashboard.keysPage(owner)).toContain('value="admin"');
    const created = await dashboard.generate(owner, { access: "restricted", scopes: ["read:catalog", "admin"] });
    expect(created.status).toBe(200);
    expect(dashboard.visibleText(await dashboard.keysPage(owner))).toContain("read:catalog, admin");
  });
});

describe("the site icon", () => {
  it("is served at /favicon.svg and /favicon.ico, cached as immutable, and linked from every page", async () => {
    const client = new dashboard.DashboardClient();
    for (const path of ["/favicon.svg", "/favicon.ico"]) {
      const icon = await client.get(path);
      expect(icon.status).toBe(200);
      expect(icon.headers.get("Content-Type")).toBe("image/svg+xml");
      expect(icon.headers.get("Cache-Control")).toBe("public, max-age=31536000, immutable");
      expect(await icon.text()).toMatch(/^<svg [^>]*viewBox="0 0 32 32"/);
    }
    const link = '<link rel="icon" href="/favicon.svg" type="image/svg+xml"/>';
    expect(await (await client.get("/dashboard")).text()).toContain(link);
    expect(await (await client.get("/login")).text()).toContain(link);
    expect(await dashboard.keysPage(await dashboard.signIn(await newAccount()))).toContain(link);
  });
});

describe("pages without a session", () => {
  it("serves the stylesheet and the copy script to anyone", async () => {
    const client = new dashboard.DashboardClient();
    const css = await client.get("/dashboard/styles.css");
    expect(css.status).toBe(200);
    expect(css.headers.get("Content-Type")).toContain("text/css");
    const script = await client.get("/dashboard/copy.js");
    expect(script.status).toBe(200);
    expect(script.headers.get("Content-Type")).toContain("text/javascript");
    expect(await script.text()).toContain("navigator.clipboard");
  });
});
