/**
 * The OAuth paths MCP hosts take to /mcp, each with the official SDK client's auth helpers
 * (`@modelcontextprotocol/sdk`, OAuthClientProvider): discovery from the 401 (RFC 9728 → RFC 8414),
 * then either dynamic registration (RFC 7591) or a Client ID Metadata Document (MCP 2025-11-25),
 * authorization code with PKCE through our sign-in and consent pages, tokens, and tools/list.
 *
 * The SDK takes a document only at an https URL (`clientMetadataUrl`); the test's document is
 * served on http://127.0.0.1 (document-server.global-setup.ts; workerd may fetch it only because the
 * tests set WEBHOOK_LOCAL_TARGETS=loopback, as `npm start` does). So the CIMD host hands the URL as
 * its client information, which is what the SDK does with a `clientMetadataUrl` once the metadata
 * says `client_id_metadata_document_supported` (client/auth.js): the same requests follow.
 */
import { exports } from "cloudflare:workers";
import { UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { describe, expect, it } from "vitest";
import * as oauth from "./oauth-support";
import { documentUrl, fetchCount, publishJson } from "./support/document-server";
import { InMemoryHost } from "./support/mcp-host";

const MCP_URL = new URL("/mcp", oauth.ORIGIN);
const inWorker = (input: string | URL | Request, init?: RequestInit) => exports.default.fetch(new Request(input, init));

/** A host whose "browser" is a customer who signs in and clicks Allow. */
class Host extends InMemoryHost {
  code?: string;
  consentPage = "";
  constructor(
    private readonly account: { email: string; password: string },
    documentClientId?: string,
  ) {
    super(oauth.REDIRECT_URI, "Host App");
    if (documentClientId) this.client = { client_id: documentClientId };
  }
  async redirectToAuthorization(url: URL) {
    expect(url.searchParams.get("resource")).toBe(MCP_URL.href);
    const browser = new oauth.Browser();
    this.consentPage = await oauth.signInAndOpenConsent(browser, url.href, this.account);
    this.code = (await oauth.decide(browser, this.consentPage, "approve")).searchParams.get("code") ?? undefined;
  }
}

/** The host's first connect (401 → sign-in → code), the code exchange, then tools/list on a new connection. */
async function connectAsHost(host: Host): Promise<string[]> {
  const transport = new StreamableHTTPClientTransport(MCP_URL, { authProvider: host, fetch: inWorker });
  await expect(new Client({ name: "host", version: "1" }).connect(transport)).rejects.toThrow(UnauthorizedError);
  await transport.finishAuth(host.code ?? "no code");
  expect(host.saved?.access_token).toMatch(/^oat_/);
  const client = new Client({ name: "host", version: "1" });
  await client.connect(new StreamableHTTPClientTransport(MCP_URL, { authProvider: host, fetch: inWorker }));
  try {
    return (await client.listTools()).tools.map((tool) => tool.name);
  } finally {
    await client.close();
  }
}

describe("MCP hosts' OAuth paths to /mcp, with the SDK client", () => {
  it("dynamic registration: registers, is named by its claimed name, lists the tools", async () => {
    const host = new Host(await oauth.createCustomer());
    const tools = await connectAsHost(host);
    expect(tools).toContain("describe_catalog");
    expect(host.client?.client_id).not.toMatch(/^https?:/);
    expect(host.consentPage).toContain("Allow Host App to use your account?");
  });

  it("a Client ID Metadata Document: no registration, named by its verified host, lists the tools", async () => {
    const clientId = documentUrl("sdk-host");
    await publishJson(clientId, {
      client_id: clientId,
      client_name: "Host App",
      redirect_uris: [oauth.REDIRECT_URI],
      token_endpoint_auth_method: "none",
    });
    const host = new Host(await oauth.createCustomer(), clientId);
    const tools = await connectAsHost(host);
    expect(tools).toContain("describe_catalog");
    expect(host.client?.client_id).toBe(clientId);
    expect(host.consentPage).toContain(`Allow the app at ${new URL(clientId).host} to use your account?`);
    expect(await fetchCount(clientId)).toBeGreaterThanOrEqual(1);
  });
});
