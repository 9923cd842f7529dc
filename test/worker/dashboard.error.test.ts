/**
 * The dashboard's refusals: each is a page that says in words what went wrong and what to do
 * (never a problem+json body), with a status that matches, and nothing is created or changed.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { accountObject } from "../../src/worker/auth/accounts";
import { newAccount, newKey } from "./auth-fixtures";
import * as dashboard from "./dashboard-support";
import { formField } from "./oauth-support";

async function activeKeyCount(accountId: string): Promise<number> {
  const listed = await accountObject(env, accountId).listKeys();
  if (!listed.ok) throw new Error(listed.detail);
  return listed.value.filter((key) => key.status === "active").length;
}

function expectHtmlPage(response: Response) {
  expect(response.headers.get("Content-Type")).toMatch(/^text\/html/);
}

describe("sign-in: refused in words, then continues to the dashboard", () => {
  it("says a wrong password does not match, and keeps where to continue", async () => {
    const account = await newAccount();
    const client = new dashboard.DashboardClient();
    const gate = await (await client.get("/dashboard/apps")).text();
    const fields = { csrf_token: dashboard.csrfOf(gate), continue: formField(gate, "continue"), email: account.email };
    expect(fields.continue).toBe("/dashboard/apps");
    const wrong = await client.post("/login", { ...fields, password: "not the password" });
    expect(wrong.status).toBe(401);
    const html = await wrong.text();
    expect(dashboard.visibleText(html)).toContain("That email address and password do not match an account.");
    const right = await client.post("/login", {
      ...fields,
      csrf_token: dashboard.csrfOf(html),
      continue: formField(html, "continue"),
      password: account.password,
    });
    expect(right.status).toBe(303);
    expect(right.headers.get("Location")).toBe("/dashboard/apps");
  });
});

/** Posts the Generate form with `fields`, expecting a `status` page that says `says`: returns its HTML. */
async function refusedGenerate(
  client: dashboard.DashboardClient,
  fields: dashboard.FormFields,
  status: number,
  says: string,
) {
  const refused = await dashboard.generate(client, fields);
  expect(refused.status).toBe(status);
  const html = await refused.text();
  expect(dashboard.visibleText(html)).toContain(says);
  return html;
}

describe("generate: refused with the reason on the page", () => {
  it("refuses a 4th active key with the spec's explanation (at most 3, and how to rotate)", async () => {
    const account = await newAccount();
    const client = await dashboard.signIn(account);
    for (let i = 1; i <= 3; i++) expect((await dashboard.generate(client, { name: `key ${i}` })).status).toBe(200);
    const page = await dashboard.keysPage(client);
    expect(dashboard.visibleText(page)).toContain("You have 3 active keys, the most an account can have at once.");

    const refused = await dashboard.generate(client, { name: "key 4" });
    expect(refused.status).toBe(409);
    expectHtmlPage(refused);
    const html = await refused.text();
    const text = dashboard.visibleText(html);
    const alert = /role="alert"[^>]*>([\s\S]*?)<\/(?:p|div)>/.exec(html)?.[1] ?? "";
    expect(dashboard.visibleText(alert)).toBe(
      "No key was generated: you already have 3 active keys, the most an account can have. Revoke one you no longer use, then generate again. To replace a key without downtime, see Rotating a key.",
    );
    // The rotation recipe is said once, in its own panel, not repeated in the refusal.
    expect(text.split("Deploy the new key everywhere the old one is used.")).toHaveLength(2);
    expect(html).toContain('role="alert"');
    expect(html).toContain('value="key 4"'); // the form keeps what was typed
    expect(await activeKeyCount(account.accountId)).toBe(3);
  });

  it("explains each invalid field next to it and keeps the other values", async () => {
    const account = await newAccount();
    const client = await dashboard.signIn(account);
    const tooLong = "Use at most 100 characters (this name has 101).";
    const html = await refusedGenerate(client, { name: "x".repeat(101) }, 400, tooLong);
    expect(dashboard.visibleText(html)).toContain(
      "The key was not generated. Fix the fields marked in Generate a key and try again.",
    );
    expect(html).toMatch(/id="key-name"[^>]*aria-invalid="true"[^>]*aria-describedby="key-name-hint key-name-error"/);

    await refusedGenerate(client, { access: "restricted" }, 400, "Choose at least one scope for a restricted key");
    const unknownScope = { access: "restricted", scopes: ["read:everything"] };
    await refusedGenerate(client, unknownScope, 400, "Unknown scope read:everything.");
    expect(await activeKeyCount(account.accountId)).toBe(0);
  });

  it("refuses a test key on the production dashboard and says where test keys come from", async () => {
    const account = await newAccount();
    const client = await dashboard.signIn(account);
    const says = "This dashboard creates live keys only. Test keys are created on the sandbox dashboard.";
    await refusedGenerate(client, { mode: "test" }, 400, says);
    expect(await activeKeyCount(account.accountId)).toBe(0);
  });

  it("does not offer admin before an operator approved it, and refuses it if posted anyway", async () => {
    const account = await newAccount();
    const client = await dashboard.signIn(account);
    const page = await dashboard.keysPage(client);
    expect(page).not.toContain('value="admin"');
    expect(dashboard.visibleText(page)).toContain(
      "The admin scope is available once an operator approves it for your account.",
    );
    const says = "No key was generated: the admin scope needs an operator's approval for your account.";
    await refusedGenerate(client, { access: "restricted", scopes: ["admin"] }, 403, says);
    expect(await activeKeyCount(account.accountId)).toBe(0);
  });

  it("creates no second key when the same form is posted twice (a reload)", async () => {
    const account = await newAccount();
    const client = await dashboard.signIn(account);
    const html = await dashboard.keysPage(client);
    const fields = {
      csrf_token: dashboard.csrfOf(html),
      form_id: dashboard.formIdOf(html),
      mode: "live",
      access: "all",
    };
    expect((await client.post("/dashboard/keys", fields)).status).toBe(200);
    const again = await client.post("/dashboard/keys", fields);
    expect(again.status).toBe(409);
    expect(dashboard.visibleText(await again.text())).toContain(
      "This form was already sent (perhaps the page was reloaded), so no second key was generated.",
    );
    expect(await activeKeyCount(account.accountId)).toBe(1);

    const noId = await client.post("/dashboard/keys", { ...fields, form_id: "" });
    expect(noId.status).toBe(409);
    expect(dashboard.visibleText(await noId.text())).toContain("The form is out of date, so no key was generated.");
    expect(await activeKeyCount(account.accountId)).toBe(1);
  });
});

describe("pages that do not exist", () => {
  it("answers an unknown or malformed key id with a 404 page in words", async () => {
    const client = await dashboard.signIn(await newAccount());
    for (const path of ["/dashboard/keys/key_live_AAAAAAAAAAAAAAAAAAAA/revoke", "/dashboard/keys/not-a-key/revoke"]) {
      const response = await client.get(path);
      expect(response.status).toBe(404);
      expectHtmlPage(response);
      expect(dashboard.visibleText(await response.text())).toContain(
        "Your account has no key with that id. Nothing was changed.",
      );
    }
  });

  it("sends an already revoked key's confirmation back to the list", async () => {
    const account = await newAccount();
    const { key } = await newKey(account.accountId);
    await accountObject(env, account.accountId).revokeKey(key.id);
    const client = await dashboard.signIn(account);
    const response = await client.get(`/dashboard/keys/${key.id}/revoke`);
    expect(response.status).toBe(303);
    expect(response.headers.get("Location")).toBe(`/dashboard/keys?revoked=${key.id}`);
  });

  it("answers an unknown app and an unknown dashboard page with 404 pages", async () => {
    const client = await dashboard.signIn(await newAccount());
    const app = await client.get("/dashboard/apps/abcdefghijklmnop/revoke");
    expect(app.status).toBe(404);
    expect(dashboard.visibleText(await app.text())).toContain(
      "None of the apps authorized on your account has that id",
    );
    const page = await client.get("/dashboard/nowhere");
    expect(page.status).toBe(404);
    expectHtmlPage(page);
    expect(dashboard.visibleText(await page.text())).toContain("The dashboard has no page at /dashboard/nowhere.");
  });

  it("answers an operator decision on a request that does not exist with a page in words", async () => {
    const operator = await newAccount({ operator: true });
    const client = await dashboard.signIn(operator);
    const html = await (await client.get("/dashboard/operator")).text();
    const missing = await client.post("/dashboard/operator/admin-requests/approve", {
      csrf_token: dashboard.csrfOf(html),
      account_id: operator.accountId,
      client_id: "no-such-client",
    });
    expect(missing.status).toBe(404);
    expect(dashboard.visibleText(await missing.text())).toContain("There is no admin request for that account and app");
    const malformed = await client.post("/dashboard/operator/admin-requests/reject", {
      csrf_token: dashboard.csrfOf(html),
      account_id: "bob",
    });
    expect(malformed.status).toBe(400);
    expect(dashboard.visibleText(await malformed.text())).toContain("The form did not name an account and an app.");
  });
});
