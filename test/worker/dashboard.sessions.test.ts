/**
 * What the sign-in pages keep: nothing for an anonymous visitor (page views write no storage; the
 * sign-in form's CSRF token is a double-submit of a cookie nonce), one stored session per sign-in.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call, countingEnv, newAccount } from "./auth-fixtures";
import { csrfOf, DashboardClient, visibleText } from "./dashboard-support";
import { authorizeUrl, formField, pkcePair, registerClient, standardParams } from "./oauth-support";

const STORAGE_WRITES = /\.(put|delete|getByName)$/;

async function storedSessions(): Promise<number> {
  return (await env.OAUTH_KV.list({ prefix: "web-session:" })).keys.length;
}

describe("anonymous visitors", () => {
  it("N cookie-less page views of the sign-in pages write nothing", async () => {
    const { clientId } = await registerClient();
    const { challenge } = await pkcePair();
    const pages = ["/dashboard", "/dashboard/keys", "/login", authorizeUrl(standardParams(clientId, challenge))];
    const before = await storedSessions();
    const { env: counted, calls } = countingEnv();
    for (let i = 0; i < 25; i++) {
      for (const page of pages) {
        const res = await call(page, {}, counted);
        expect(res.status).toBe(200);
        expect(await res.text()).toContain('name="csrf_token"');
      }
    }
    expect(calls.filter((name) => STORAGE_WRITES.test(name))).toEqual([]);
    expect(await storedSessions()).toBe(before);
  });

  it("get a CSRF cookie (HttpOnly, Secure, SameSite=Lax), the same token on every view, and no session cookie", async () => {
    const client = new DashboardClient();
    const first = await client.get("/login");
    const lines = first.headers.getSetCookie();
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^__Host-csrf=[A-Za-z0-9_-]{43}; Max-Age=\d+; Path=\/; HttpOnly; Secure; SameSite=Lax$/);
    const token = csrfOf(await first.text());
    const again = await client.get("/dashboard");
    expect(again.headers.getSetCookie()).toEqual([]);
    expect(csrfOf(await again.text())).toBe(token);
    expect(token).not.toContain(client.cookies.get("__Host-csrf"));
  });
});

describe("the sign-in form's CSRF token (double-submit of the cookie nonce)", () => {
  async function openForm() {
    const client = new DashboardClient();
    const html = await (await client.get("/dashboard")).text();
    return { client, fields: { csrf_token: csrfOf(html), continue: formField(html, "continue") } };
  }

  it("signs in with the token of this browser's cookie, storing exactly one session", async () => {
    const account = await newAccount();
    const { client, fields } = await openForm();
    const before = await storedSessions();
    const res = await client.post("/login", { ...fields, email: account.email, password: account.password });
    expect(res.status).toBe(303);
    expect(client.cookies.get("__Host-session")).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await storedSessions()).toBe(before + 1);
  });

  it("signing in again starts a new session id and deletes the old record (no fixation)", async () => {
    const account = await newAccount();
    const { client, fields } = await openForm();
    await client.post("/login", { ...fields, email: account.email, password: account.password });
    const first = client.cookies.get("__Host-session");
    const signedIn = await (await client.get("/login")).text();
    const before = await storedSessions();
    const again = await client.post("/login", {
      csrf_token: csrfOf(signedIn),
      email: account.email,
      password: account.password,
    });
    expect(again.status).toBe(303);
    expect(client.cookies.get("__Host-session")).not.toBe(first);
    expect(await storedSessions()).toBe(before);
  });

  const refusals = [
    {
      name: "a tampered token",
      tamper: (token: string) => (token[0] === "A" ? "B" : "A") + token.slice(1),
      says: "security token is missing or out of date",
    },
    { name: "no token", tamper: () => undefined, says: "security token is missing or out of date" },
  ];
  for (const refusal of refusals) {
    it(`refuses ${refusal.name}: 403, no session`, async () => {
      const account = await newAccount();
      const { client, fields } = await openForm();
      const token = refusal.tamper(fields.csrf_token);
      const res = await client.post("/login", {
        continue: fields.continue,
        email: account.email,
        password: account.password,
        ...(token ? { csrf_token: token } : {}),
      });
      expect(res.status).toBe(403);
      expect(visibleText(await res.text())).toContain(refusal.says);
      expect(client.cookies.has("__Host-session")).toBe(false);
    });
  }

  it("refuses a token from another browser: 403, no session", async () => {
    const account = await newAccount();
    const victim = await openForm();
    const attacker = await openForm();
    const res = await victim.client.post("/login", {
      ...victim.fields,
      csrf_token: attacker.fields.csrf_token,
      email: account.email,
      password: account.password,
    });
    expect(res.status).toBe(403);
    expect(victim.client.cookies.has("__Host-session")).toBe(false);
  });

  it("refuses a form posted without the cookie: 403, and says to allow cookies", async () => {
    const account = await newAccount();
    const { client, fields } = await openForm();
    client.cookies.clear();
    const res = await client.post("/login", { ...fields, email: account.email, password: account.password });
    expect(res.status).toBe(403);
    expect(visibleText(await res.text())).toContain("cookie");
    expect(client.cookies.has("__Host-session")).toBe(false);
  });
});
