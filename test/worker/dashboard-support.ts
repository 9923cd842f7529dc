import { env } from "cloudflare:workers";
import { expect } from "vitest";
import { expectDefined } from "../../src/common/expect";
import { recordAdminRequest } from "../../src/worker/auth/oauth/admin-request-record";
import { newAccount, type TestAccount } from "./auth-fixtures";
import { Browser, captureIn, formField, ORIGIN, type FormFields } from "./oauth-browser-support";

export { captureIn, ORIGIN };

export type { FormFields };

/** The dashboard's browser: the OAuth tests' cookie-keeping client, with paths and an options object. */
export class DashboardClient {
  readonly #browser = new Browser();

  get cookies(): Map<string, string> {
    return this.#browser.cookies;
  }

  get setCookieLines(): string[] {
    return this.#browser.setCookieLines;
  }

  get(path: string): Promise<Response> {
    return this.#browser.get(path);
  }

  /** GETs where a redirect points: its Location, which must be there. */
  follow(redirect: Response): Promise<Response> {
    return this.get(expectDefined(redirect.headers.get("Location"), `a Location header on the ${redirect.status}`));
  }

  /** A form post; `origin: null` sends none, another value pretends to be another site. */
  post(path: string, fields: FormFields, options: { origin?: string | null } = {}): Promise<Response> {
    return this.#browser.post(path, fields, options.origin === undefined ? ORIGIN : options.origin);
  }
}

export const csrfOf = (html: string) => formField(html, "csrf_token");
export const formIdOf = (html: string) => formField(html, "form_id");

/** Posts the sign-in form of `html` (a page showing it) as a browser does, with its CSRF token and `continue`. */
export function submitSignIn(
  client: DashboardClient,
  html: string,
  account: { email: string; password: string },
): Promise<Response> {
  return client.post("/login", {
    csrf_token: csrfOf(html),
    continue: formField(html, "continue"),
    email: account.email,
    password: account.password,
  });
}

/** Opens the dashboard signed out, signs in with the form it shows, and lands on the keys page. */
export async function signIn(account: { email: string; password: string }): Promise<DashboardClient> {
  const client = new DashboardClient();
  const gate = await client.get("/dashboard");
  expect(gate.status).toBe(200);
  const signedIn = await submitSignIn(client, await gate.text(), account);
  expect(signedIn.status).toBe(303);
  expect(signedIn.headers.get("Location")).toBe("/dashboard");
  return client;
}

/** The keys page's HTML (asserting 200). */
export async function keysPage(client: DashboardClient): Promise<string> {
  const page = await client.get("/dashboard/keys");
  expect(page.status).toBe(200);
  return page.text();
}

/** Fills and posts the Generate form from a fresh keys page; returns the response. */
export async function generate(client: DashboardClient, fields: FormFields = {}): Promise<Response> {
  const html = await keysPage(client);
  return client.post("/dashboard/keys", {
    csrf_token: csrfOf(html),
    form_id: formIdOf(html),
    mode: "live",
    access: "all",
    ...fields,
  });
}

export const SECRET_PATTERN = /sk_(?:live|test)_[0-9A-Za-z]{36}/;

/** The secret shown in a Generate response. */
export function secretIn(html: string): string {
  const match = SECRET_PATTERN.exec(html);
  if (!match) throw new Error(`no secret in page:\n${html.slice(0, 3000)}`);
  return match[0];
}

/** Text of the page without tags, whitespace collapsed: what a reader sees. */
export function visibleText(html: string): string {
  return html
    .replace(/<(script|style)[^>]*>[\s\S]*?<\/\1>/g, " ")
    .replace(/<[^>]+>/g, " ")
    .replaceAll("&amp;", "&")
    .replaceAll("&lt;", "<")
    .replaceAll("&gt;", ">")
    .replaceAll("&quot;", '"')
    .replaceAll("&#39;", "'")
    .replace(/\s+/g, " ")
    .trim();
}

/** The visible text of the first table cell labelled `label` (the cells' `data-label`). */
export function cellText(html: string, label: string): string {
  return visibleText(captureIn(html, new RegExp(`<td data-label="${label}">([\\s\\S]*?)</td>`), `"${label}" cell`));
}

/** A new account with a pending OAuth admin request of the app `clientId` (as the consent page records it). */
export async function accountWaitingForAdmin(clientId: string, clientName: string): Promise<TestAccount> {
  const account = await newAccount();
  await recordAdminRequest(env.OAUTH_KV, { accountId: account.accountId, clientId, clientName, now: new Date() });
  return account;
}
