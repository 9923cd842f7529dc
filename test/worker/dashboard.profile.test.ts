/**
 * The dashboard's profile page: the same profile as GET /v2/customer, edited through a
 * CSRF-protected form; errors by their fields, stale forms refused, nothing changed by a refusal.
 */
import { describe, expect, it } from "vitest";
import { newAccount, newKey } from "./auth-fixtures";
import { csrfOf, type DashboardClient, signIn, visibleText } from "./dashboard-support";
import { formField } from "./oauth-support";
import { type CustomerView, getJson } from "./orders-support";

const FULL = {
  name: "Ada Lovelace",
  email: "ada@example.org",
  phone: "+441234567890",
  line1: "1 Cheese Lane",
  line2: "",
  city: "London",
  postal_code: "EC1A 1BB",
  country: "gb",
  language: "en-GB",
  marketing_emails: "yes",
};

async function profileForm(client: DashboardClient) {
  const page = await client.get("/dashboard/profile");
  expect(page.status).toBe(200);
  const html = await page.text();
  return { html, csrf_token: csrfOf(html), version: formField(html, "version") };
}

async function signedInCustomer() {
  const account = await newAccount();
  const client = await signIn(account);
  const { secret } = await newKey(account.accountId);
  return { client, secret };
}

describe("/dashboard/profile", () => {
  it("shows the profile and saves an edit that the API then shows", async () => {
    const { client, secret } = await signedInCustomer();
    const { html, csrf_token, version } = await profileForm(client);
    expect(visibleText(html)).toContain("Profile");
    const saved = await client.post("/dashboard/profile", { ...FULL, csrf_token, version });
    expect(saved.status).toBe(303);
    expect(saved.headers.get("location")).toBe("/dashboard/profile?saved=1");
    expect(visibleText(await (await client.get("/dashboard/profile?saved=1")).text())).toContain("Profile saved.");
    const profile = await (await getJson(secret, "/v2/customer")).json<CustomerView>();
    expect(profile).toMatchObject({
      name: "Ada Lovelace",
      email: "ada@example.org",
      phone: "+441234567890",
      shipping_address: { line1: "1 Cheese Lane", line2: null, city: "London", postal_code: "EC1A 1BB", country: "GB" },
      preferences: { marketing_emails: true, language: "en-GB" },
    });
  });

  it("puts each error by its field (400) and saves nothing", async () => {
    const { client, secret } = await signedInCustomer();
    const before = await (await getJson(secret, "/v2/customer")).json<CustomerView>();
    const { csrf_token, version } = await profileForm(client);
    const res = await client.post("/dashboard/profile", {
      ...FULL,
      email: "nope",
      phone: "12",
      line1: "",
      country: "XX",
      csrf_token,
      version,
    });
    expect(res.status).toBe(400);
    const html = await res.text();
    for (const field of ["email", "phone", "line1", "country"])
      expect(html, field).toContain(`id="profile-${field}-error"`);
    expect(html).not.toContain('id="profile-name-error"');
    expect(visibleText(html)).toContain("Nothing was saved");
    expect(await (await getJson(secret, "/v2/customer")).json()).toEqual(before);
  });

  it("refuses a form opened before another change (409) and shows the profile as it is now", async () => {
    const { client, secret } = await signedInCustomer();
    const stale = await profileForm(client);
    const fresh = await profileForm(client);
    expect((await client.post("/dashboard/profile", { ...FULL, ...fresh })).status).toBe(303);
    const res = await client.post("/dashboard/profile", { ...FULL, name: "Someone Else", ...stale });
    expect(res.status).toBe(409);
    expect(visibleText(await res.text())).toContain("your profile changed since this page was opened");
    expect((await (await getJson(secret, "/v2/customer")).json<CustomerView>()).name).toBe("Ada Lovelace");
  });

  it("refuses a post from another site or without the CSRF token (403), changing nothing", async () => {
    const { client, secret } = await signedInCustomer();
    const before = await (await getJson(secret, "/v2/customer")).json<CustomerView>();
    const { csrf_token, version } = await profileForm(client);
    const foreign = await client.post(
      "/dashboard/profile",
      { ...FULL, csrf_token, version },
      { origin: "https://evil.example" },
    );
    expect(foreign.status).toBe(403);
    const tokenless = await client.post("/dashboard/profile", { ...FULL, version });
    expect(tokenless.status).toBe(403);
    expect(await (await getJson(secret, "/v2/customer")).json()).toEqual(before);
  });
});
