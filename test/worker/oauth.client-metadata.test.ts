/**
 * OAuth clients identified by a Client ID Metadata Document (MCP authorization 2025-11-25,
 * draft-ietf-oauth-client-id-metadata-document): the document is fetched from its `client_id` URL,
 * checked, cached by its Cache-Control, and every refusal is shown on our own page, never redirected.
 * The documents are served on 127.0.0.1 by document-server.global-setup.ts; workerd may fetch them
 * only because the tests set WEBHOOK_LOCAL_TARGETS=loopback (vitest.config.ts), as `npm start` does.
 */
import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { NEW_DOCUMENTS_SUBJECT, resolveDocumentClient } from "../../src/worker/auth/oauth/client-metadata/resolve";
import { authorizedApps } from "../../src/worker/dashboard/authorized-apps";
import * as oauth from "./oauth-support";
import { documentUrl, fetchCount, publish, publishJson } from "./support/document-server";

const documentOf = (clientId: string, extra: Record<string, unknown> = {}) => ({
  client_id: clientId,
  client_name: "Tools Desktop",
  redirect_uris: [oauth.REDIRECT_URI],
  token_endpoint_auth_method: "none",
  ...extra,
});

async function openAuthorize(clientId: string, extra: Record<string, string> = {}) {
  const { challenge, verifier } = await oauth.pkcePair();
  const url = oauth.authorizeUrl(oauth.standardParams(clientId, challenge, extra));
  return { url, verifier, response: await new oauth.Browser().get(url) };
}

/** The refusal page: 400, no redirect, the detail naming the problem; nothing stored for the client. */
async function expectRefused(clientId: string, problem: RegExp) {
  const { response } = await openAuthorize(clientId);
  expect(response.status).toBe(400);
  expect(response.headers.get("Location")).toBeNull();
  const page = await response.text();
  expect(page).toContain("Application description refused");
  expect(page).toMatch(problem);
  expect(await env.OAUTH_KV.get(`client:${clientId}`)).toBeNull();
}

describe("a client identified by its metadata document", () => {
  it("is advertised in the authorization server metadata", async () => {
    const res = await exports.default.fetch(`${oauth.ORIGIN}/.well-known/oauth-authorization-server`);
    expect(await res.json()).toMatchObject({ client_id_metadata_document_supported: true });
  });

  it("signs in: consent names the verified host, the code and a refresh redeem with the URL as client_id", async () => {
    const clientId = documentUrl("happy");
    await publishJson(clientId, documentOf(clientId), { "cache-control": "max-age=60" });
    const account = await oauth.createCustomer();
    const { url, verifier } = await openAuthorize(clientId);
    const browser = new oauth.Browser();
    const consent = await oauth.signInAndOpenConsent(browser, url, account);
    const host = new URL(clientId).host;
    expect(consent).toContain(`Allow the app at ${host} to use your account?`);
    expect(consent).toMatch(/published at <strong>127\.0\.0\.1:\d+<\/strong>/);
    expect(consent).toContain("“Tools Desktop”, is its own claim");
    const back = await oauth.decide(browser, consent, "approve");
    const code = back.searchParams.get("code") ?? "";
    const tokens = await oauth.tokenRequest(oauth.codeExchange(clientId, code, verifier));
    expect(tokens.status).toBe(200);
    const body = await tokens.json<oauth.TokenBody>();
    expect((await oauth.bearerGet("/v2/cheeses", body.access_token)).status).toBe(200);
    // The dashboard's authorized apps name it as the consent page did.
    const [app] = await authorizedApps(env, oauth.ORIGIN, account.id);
    expect(app?.appName).toBe(`the app at ${host}`);
    // The stored record is gone (its lifetime passed): a refresh fetches the document again.
    await env.OAUTH_KV.delete(`client:${clientId}`);
    const refreshed = await oauth.refreshRequest(clientId, body.refresh_token);
    expect(refreshed.status).toBe(200);
    expect(await fetchCount(clientId)).toBe(2);
  });

  it("names a registered client by its self-declared name, marked as unchecked", async () => {
    const { consent } = await oauth.openConsent({ client: { name: "Cheese Tracker" } });
    expect(consent).toContain("Allow Cheese Tracker to use your account?");
    expect(consent).toMatch(/nobody here checked it \(the app registered itself under that name\)/);
  });
});

describe("a metadata document that cannot be used is refused on our page, and nothing is stored", () => {
  it("whose client_id is not its own URL", async () => {
    const clientId = documentUrl("mismatch");
    await publishJson(clientId, documentOf(`${clientId}-other`));
    await expectRefused(clientId, /client_id must be the document(&#39;|')s own URL, exactly/);
  });

  it("without a client_name, with a secret, and with a redirect URI that is not https: every problem at once", async () => {
    const clientId = documentUrl("many");
    const document = documentOf(clientId, { client_secret: "s", redirect_uris: ["http://app.example/cb"] });
    delete (document as Record<string, unknown>).client_name;
    await publishJson(clientId, document);
    const { response } = await openAuthorize(clientId);
    const page = await response.text();
    expect(page).toContain("client_name is required");
    expect(page).toContain("client_secret must not be in a public document");
    expect(page).toContain("redirect_uris[0]: plain http is only allowed on a loopback host");
  });

  it("on an internal address, before any request is sent", async () => {
    await expectRefused("https://10.1.2.3/client.json", /the client_id URL must not point at a private address/);
    await expectRefused("https://metadata.internal/client.json", /must not point at a local-network name/);
  });

  it("on loopback or plain http, outside local development", async () => {
    const clientId = documentUrl("production");
    await publishJson(clientId, documentOf(clientId));
    const resolved = await resolveDocumentClient(env, clientId, { allowLoopback: false });
    expect(resolved).toEqual({
      problems: ["the client_id URL must be https", "the client_id URL must not point at a loopback address"],
    });
    expect(await fetchCount(clientId)).toBe(0);
  });

  it("without a path (CIMD §3)", async () => {
    await expectRefused("https://tools.example/", /must have a path/);
  });

  it("that answers with a redirect, which is not followed", async () => {
    const clientId = documentUrl("redirect");
    await publish(clientId, { body: "", status: 302, headers: { location: "http://127.0.0.1:1/elsewhere" } });
    await expectRefused(clientId, /answered with a redirect \(HTTP 302\); redirects are not followed/);
  });

  it("that is larger than 5 KB", async () => {
    const clientId = documentUrl("large");
    await publishJson(clientId, documentOf(clientId, { padding: "x".repeat(6000) }));
    await expectRefused(clientId, /the document is larger than 5120 bytes/);
  });

  it("that takes longer than 5 s", async () => {
    const clientId = documentUrl("slow");
    await publish(clientId, { body: JSON.stringify(documentOf(clientId)), delayMs: 8000 });
    await expectRefused(clientId, /the document did not answer within 5 s/);
  }, 20_000);

  it("that is not JSON", async () => {
    const clientId = documentUrl("html");
    await publish(clientId, { body: "<html>hello</html>", headers: { "content-type": "text/html" } });
    await expectRefused(clientId, /the document is not JSON/);
  });

  it("whose redirect_uri is not in the document", async () => {
    const clientId = documentUrl("redirect-uri");
    await publishJson(clientId, documentOf(clientId));
    const { response } = await openAuthorize(clientId, { redirect_uri: "https://evil.example/cb" });
    expect(response.status).toBe(400);
    expect(response.headers.get("Location")).toBeNull();
    expect(await response.text()).toContain("Redirect address not registered");
  });

  it("at the token endpoint: invalid_client naming the problem", async () => {
    const clientId = documentUrl("token");
    await publish(clientId, { body: "nope" });
    const res = await oauth.tokenRequest({ grant_type: "refresh_token", refresh_token: "ort_x", client_id: clientId });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({
      error: "invalid_client",
      error_description: "client_id's metadata document: the document is not JSON",
    });
  });
});

describe("the document cache follows the document's Cache-Control", () => {
  it("reuses a document for its max-age", async () => {
    const clientId = documentUrl("cached");
    await publishJson(clientId, documentOf(clientId), { "cache-control": "public, max-age=600" });
    expect((await openAuthorize(clientId)).response.status).toBe(200);
    await publishJson(clientId, documentOf(`${clientId}-changed`), { "cache-control": "max-age=600" });
    expect((await openAuthorize(clientId)).response.status).toBe(200);
    expect(await fetchCount(clientId)).toBe(1);
  });

  it("fetches again each time a document says no-store (or nothing)", async () => {
    const clientId = documentUrl("uncached");
    await publishJson(clientId, documentOf(clientId), { "cache-control": "no-store" });
    expect((await openAuthorize(clientId)).response.status).toBe(200);
    expect((await openAuthorize(clientId)).response.status).toBe(200);
    expect(await fetchCount(clientId)).toBe(2);
  });

  it("keeps a document at most a day, whatever its max-age", async () => {
    const clientId = documentUrl("year");
    await publishJson(clientId, documentOf(clientId), { "cache-control": "max-age=31536000" });
    const before = Math.floor(Date.now() / 1000);
    expect((await openAuthorize(clientId)).response.status).toBe(200);
    const stored = await env.OAUTH_KV.getWithMetadata(`client:${clientId}`);
    const record = JSON.parse(stored.value ?? "{}") as { metadataFreshUntil: number };
    expect(record.metadataFreshUntil - before).toBeLessThanOrEqual(24 * 3600 + 1);
    expect(record.metadataFreshUntil - before).toBeGreaterThanOrEqual(24 * 3600 - 1);
  });
});

describe("new documents are fetched within a deployment budget", () => {
  it("refuses a new document once the budget is spent, and still serves a stored one", async () => {
    const known = documentUrl("known");
    await publishJson(known, documentOf(known), { "cache-control": "max-age=600" });
    expect((await openAuthorize(known)).response.status).toBe(200);
    // An operator's override (as for any SubjectGuard): one new document, then one every 1000 s.
    const budget = env.SUBJECT_GUARDS.getByName(NEW_DOCUMENTS_SUBJECT);
    await budget.setPolicyOverride({ rate: 0.001, burst: 1 });
    try {
      const first = documentUrl("in-budget");
      await publishJson(first, documentOf(first));
      expect((await openAuthorize(first)).response.status).toBe(200);
      const clientId = documentUrl("over-budget");
      await publishJson(clientId, documentOf(clientId));
      await expectRefused(
        clientId,
        /fetched too many new client metadata documents \(at most 1000, then 1000 a day\); retry after \d+ s/,
      );
      expect(await fetchCount(clientId)).toBe(0);
      expect((await openAuthorize(known)).response.status).toBe(200);
    } finally {
      await budget.setPolicyOverride(null);
    }
  });
});
