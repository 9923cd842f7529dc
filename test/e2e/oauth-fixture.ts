/**
 * The deployment the OAuth end-to-end tests run against: the sample catalog built and published,
 * a customer account (through the operator API that `npm run operator` drives), a public and a
 * confidential client registered as `npm run clients` registers them, whose redirect URI is a
 * loopback callback server of the test itself, and the real `wrangler dev`.
 * Plus the small form-driving "browser" (fetch + a cookie jar) the non-browser test uses.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { expect } from "vitest";
import { localOperator } from "../../src/node/operator/local-operator";
import { catalogState, type CatalogState } from "./support/catalog-state";
import { withClientRegistry } from "../../src/node/oauth/client-registry";
import { startWranglerDev, type DevServer } from "./support/wrangler-dev";
import { withEnvironment } from "./support/environment";
import { expectDefined } from "../../src/common/expect";

export interface OAuthDeployment {
  server: DevServer;
  state: CatalogState;
  callback: CallbackServer;
  clientId: string;
  /** A confidential client with the same redirect URI, registered the same way. */
  confidential: { clientId: string; clientSecret: string; name: string };
  account: { email: string; password: string };
  stop(): Promise<void>;
}

export interface CallbackServer {
  redirectUri: string;
  /** Every URL the browser was sent to, in order. */
  received: URL[];
  close(): Promise<void>;
}

/** A loopback redirect target (RFC 8252 §7.3) that records what arrives and says "you can close this". */
export async function startCallbackServer(): Promise<CallbackServer> {
  const received: URL[] = [];
  const server: Server = createServer((request, response) => {
    const { port } = server.address() as AddressInfo;
    received.push(new URL(request.url ?? "/", `http://127.0.0.1:${port}`));
    response.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
    response.end("<!doctype html><title>Signed in</title><p>You can close this window.</p>");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    redirectUri: `http://127.0.0.1:${port}/callback`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

type NewClient = { name: string; redirectUri: string; public: boolean };
type Registered = { clientId: string; clientSecret?: string };

/**
 * Registers OAuth clients in the local state at `persistTo` as `npm run clients -- create` does
 * (the library's registration it calls, src/node/oauth/clients-command.ts), all in one opening of
 * the state: each client's id, and a confidential client's secret. The command itself, and its
 * door as a process, are clients.test.ts's; two processes per deployment here cost ~6 s of CPU.
 */
export async function registerClients<const T extends readonly NewClient[]>(
  persistTo: string,
  clients: T,
): Promise<{ [K in keyof T]: Registered }> {
  return withClientRegistry({ persistTo }, async (api, { provider: { registerClient } }) => {
    const registered: Registered[] = [];
    for (const client of clients)
      registered.push(
        await registerClient(api, { name: client.name, redirectUris: [client.redirectUri], isPublic: client.public }),
      );
    return registered as { [K in keyof T]: Registered };
  });
}

export async function startOAuthDeployment(): Promise<OAuthDeployment> {
  const state = catalogState();
  await state.publishSamples();

  const callback = await startCallbackServer();
  const redirectUri = callback.redirectUri;
  const confidentialName = "E2E Confidential App";
  const [{ clientId }, registered] = await registerClients(state.persistTo, [
    { name: "E2E Cheese App", redirectUri, public: true },
    { name: confidentialName, redirectUri, public: false },
  ]);
  const confidential = {
    clientId: registered.clientId,
    clientSecret: expectDefined(registered.clientSecret, "the confidential client's secret"),
    name: confidentialName,
  };

  const account = { email: `e2e-${Date.now()}@example.com`, password: "e2e correct horse battery" };
  // The operator API (what `npm run operator` drives) creates the customer; wrangler dev gets the
  // local operator secret (.wrangler/operator.env) from this process's environment, so that
  // `npm run operator -- … --url <server>` works against it as it does against npm start's servers.
  const { operatorSecret } = localOperator();
  const server = await withEnvironment(
    { CLOUDFLARE_INCLUDE_PROCESS_ENV: "true", OPERATOR_SECRET: operatorSecret },
    () => startWranglerDev({ persistTo: state.persistTo }),
  );
  const created = await fetch(new URL("/operator/v1/accounts", server.url), {
    method: "POST",
    headers: { Authorization: `Bearer ${operatorSecret}`, "Content-Type": "application/json" },
    body: JSON.stringify({ email: account.email, password: account.password, name: "E2E Customer" }),
  });
  const stop = async () => {
    await server.stop();
    await callback.close();
    state.remove();
  };
  if (created.status !== 201) {
    const detail = await created.text();
    await stop();
    throw new Error(`creating the customer account failed: ${created.status} ${detail}`);
  }
  return { server, state, callback, clientId, confidential, account, stop };
}

/** fetch with a cookie jar and no redirect following, sending Origin on POST as browsers do. */
export class FormBrowser {
  readonly #cookies = new Map<string, string>();
  constructor(private readonly origin: string) {}

  async get(url: string): Promise<Response> {
    return this.#send(url, { method: "GET" });
  }

  async post(url: string, fields: Record<string, string>): Promise<Response> {
    return this.#send(url, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: this.origin },
      body: new URLSearchParams(fields),
    });
  }

  async #send(url: string, init: RequestInit): Promise<Response> {
    const headers = new Headers(init.headers);
    if (this.#cookies.size)
      headers.set("Cookie", [...this.#cookies].map(([name, value]) => `${name}=${value}`).join("; "));
    const response = await fetch(new URL(url, this.origin), { ...init, headers, redirect: "manual" });
    for (const line of response.headers.getSetCookie()) {
      const pair = line.split(";")[0] ?? "";
      const at = pair.indexOf("=");
      if (/max-age=0/i.test(line)) this.#cookies.delete(pair.slice(0, at));
      else this.#cookies.set(pair.slice(0, at), pair.slice(at + 1));
    }
    return response;
  }
}

/** The value of a hidden field of a rendered form. */
export function formField(html: string, name: string): string {
  const match = new RegExp(`name="${name}" value="([^"]*)"`).exec(html);
  if (!match) throw new Error(`no ${name} field in the page:\n${html.slice(0, 1500)}`);
  return expectDefined(match[1], `the value of the ${name} field`).replaceAll("&amp;", "&");
}

/** A customer's part of the flow: open the authorization URL, sign in, click Allow; returns where the browser is sent. */
export async function signInAndAllow(
  authorizeUrl: string,
  account: { email: string; password: string },
  appName = "E2E Cheese App",
): Promise<URL> {
  const browser = new FormBrowser(new URL(authorizeUrl).origin);
  const login = await browser.get(authorizeUrl);
  expect(login.status).toBe(200);
  const loginHtml = await login.text();
  const signedIn = await browser.post("/login", {
    csrf_token: formField(loginHtml, "csrf_token"),
    continue: formField(loginHtml, "continue"),
    email: account.email,
    password: account.password,
  });
  expect(signedIn.status, await signedIn.clone().text()).toBe(303);
  const consent = await browser.get(expectDefined(signedIn.headers.get("Location"), "the Location of the sign-in"));
  expect(consent.status).toBe(200);
  const consentHtml = await consent.text();
  expect(consentHtml).toContain(appName);
  const allowed = await browser.post("/oauth/authorize", {
    csrf_token: formField(consentHtml, "csrf_token"),
    handle: formField(consentHtml, "handle"),
    decision: "approve",
  });
  expect(allowed.status).toBe(303);
  return new URL(expectDefined(allowed.headers.get("Location"), "the Location of the consent"));
}
